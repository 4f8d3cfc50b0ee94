// The one implementation lives with the stack runner (scripts/stack), which starts its servers the same way.
export { answers, type ServerProcess, startServerProcess, terminate } from '../../scripts/stack/server-process.js';
