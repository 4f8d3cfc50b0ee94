/**
 * The loop that bench/profile/run.ts profiles (bundled, run by plain node with --cpu-prof): the
 * OpenTelemetry listener around the async and the sync tool, alternately, for a few seconds, with
 * nothing registered (`no-sdk`) or on the `sdk` process's SDK (bench/lib/sdk-world.ts); `floor`
 * is the hand-written floor on that SDK, to set the listener's profile against.
 *
 * Usage: loop.mjs <no-sdk|sdk|floor> <seconds>
 */
import { OpenTelemetryToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import { floorAsync, floorSync } from '../lib/floor.js';
import { installSdk } from '../lib/sdk-world.js';
import { asyncWeatherTool, INPUT, syncWeatherTool, TOOL_CONTEXT } from '../lib/tools.js';

const [world = 'no-sdk', seconds = '5'] = process.argv.slice(2);
const sdk = world === 'no-sdk' ? undefined : installSdk();
const listener = new OpenTelemetryToolCallListener();
const asyncTool =
  world === 'floor' ? floorAsync(asyncWeatherTool()) : ToolCallListeners.wrap(asyncWeatherTool(), listener);
const syncTool = world === 'floor' ? floorSync(syncWeatherTool()) : ToolCallListeners.wrap(syncWeatherTool(), listener);

const until = performance.now() + Number(seconds) * 1000;
let calls = 0;
while (performance.now() < until) {
  for (let i = 0; i < 1000; i++) {
    await asyncTool.call(INPUT, TOOL_CONTEXT);
    syncTool.call(INPUT, TOOL_CONTEXT);
  }
  calls += 2000;
}
process.stderr.write(`${world}: ${calls.toLocaleString('en-US')} calls\n`);
await sdk?.shutdown();
