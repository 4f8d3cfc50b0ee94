// A custom error policy on the AI SDK: input mistakes are reported to the model, which fixes them;
// anything else is rethrown and ends the run. Runs offline. Usage: npx tsx examples/custom-policy/main.ts

import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { ATTR_TOOL_CALL_ERROR_OUTCOME } from 'otel-tool-calls/semconv';
import { bookTable, scriptedModel } from './booking-agent.js';
import { reportInvalidInput } from './report-invalid-input.js';

const spans = new InMemorySpanExporter();
const listener = new OpenTelemetryToolCallListener({
  tracerProvider: new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] }),
  errorPolicy: reportInvalidInput,
});

for (const restaurant of ['Luigi', 'Sakura']) {
  console.log(`\n# ${restaurant}`);
  const result = await bookTable(restaurant, scriptedModel(restaurant), listener);
  for (const part of result.steps.flatMap((step) => step.content)) {
    if (part.type === 'tool-call') console.log(`model calls  ${part.toolName} ${JSON.stringify(part.input)}`);
    if (part.type === 'tool-result') console.log(`tool result  ${JSON.stringify(part.output)}`);
    if (part.type === 'tool-error') console.log(`tool error   ${String(part.error)} (rethrown: the run stops)`);
  }
  if (result.text) console.log(`model says   ${result.text}`);
}

console.log('\n# execute_tool spans');
for (const span of spans.getFinishedSpans()) {
  const outcome = span.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME];
  console.log(`${span.name}  ${outcome ? `${span.attributes[ATTR_ERROR_TYPE]}, ${outcome}` : 'ok'}`);
}
