// The startup group's app with the telemetry set up in code: startToolCallTelemetry (OTLP traces and
// metrics, as the preloads send them) and the AI SDK adapter's wrapTools.
import { wrapTools } from '../../src/adapters/ai-sdk/index.js';
import { OpenTelemetryToolCallListener } from '../../src/index.js';
import { startToolCallTelemetry } from '../../src/setup.js';
import { answer, tools } from './app.js';

const telemetry = startToolCallTelemetry({ serviceName: 'startup-bench', metrics: 'otlp' });
console.log(await answer(wrapTools(tools, new OpenTelemetryToolCallListener())));
await telemetry.shutdown();
