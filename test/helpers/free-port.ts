// The one implementation lives with the stack runner (scripts/stack), which draws its ports the same way.
export { freePort, LOWEST_DRAWN_PORT } from '../../scripts/stack/free-port.js';
