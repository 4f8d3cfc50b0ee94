/**
 * The `peers` benchmark process, started by bench/run.ts (bundled by bench/lib/peers.ts): the real
 * SDK registered as in the `sdk` process (bench/lib/sdk-world.ts), the bare tool, the OpenTelemetry
 * listener and the floor as references, and each peer in its default and content-off settings.
 *
 * Usage: suite.mjs --suite peers --out <file.json> [--quick] [--mode time|allocation] (bench/lib/world.ts)
 */
import { floorComparisons, peerReferenceCases } from '../lib/cases.js';
import { installSdk } from '../lib/sdk-world.js';
import { runWorld, worldArgs } from '../lib/world.js';
import { peerCases } from './cases.js';

const args = worldArgs(['peers']);
// registered before the peers build their wrappers, as an application starts its SDK first
const sdk = installSdk();
const cases = [...peerReferenceCases(), ...peerCases()];
await runWorld(args, cases, sdk, floorComparisons(cases));
