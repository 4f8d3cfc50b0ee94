// The startup group's app with the telemetry set up in code: startToolCallTelemetry (OTLP traces and
// metrics, as the preloads send them; `setup.mjs prometheus`: metrics served at /metrics instead, as the
// metrics paths' group compares) and the AI SDK adapter's wrapTools.
import { wrapTools } from '../../src/adapters/ai-sdk/index.js';
import { OpenTelemetryToolCallListener } from '../../src/index.js';
import { startToolCallTelemetry } from '../../src/setup.js';
import { answer, tools } from './app.js';

const metrics = process.argv[2] === 'prometheus' ? 'prometheus' : 'otlp';
const telemetry = startToolCallTelemetry({ serviceName: 'startup-bench', metrics });
console.log(await answer(wrapTools(tools, new OpenTelemetryToolCallListener())));
await telemetry.shutdown();
