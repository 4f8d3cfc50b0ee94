/**
 * decision-log.ts on the SDK 2.x line, where the Logs API is the `@opentelemetry/api-logs` package
 * (`@opentelemetry/api` 1.9 has none): the provider NodeSDK registers through it is found where it keeps
 * it, without this package loading it. (Not in the compatibility run: the 3.x line installs no api-logs;
 * test/otel/agent-signals/decisions.test.ts covers the API's own Logs API there.)
 */
import { logs } from '@opentelemetry/api-logs';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME, ATTR_GEN_AI_TOOL_NAME } from 'otel-tool-calls/semconv';
import { afterEach, describe, expect, it } from 'vitest';
import { registeredLoggerProvider } from '../../src/otel/decision-log.js';

describe('the registered logger provider, @opentelemetry/api-logs (decision-log.ts)', () => {
  afterEach(() => logs.disable());

  it('is found where @opentelemetry/api-logs registers it', async () => {
    expect(registeredLoggerProvider()).toBeUndefined();
    const exporter = new InMemoryLogRecordExporter();
    const loggerProvider = new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter })] });
    logs.setGlobalLoggerProvider(loggerProvider);
    expect(registeredLoggerProvider()).toBe(loggerProvider);
    new OpenTelemetryToolCallListener().onDecision({ toolName: 'deploy', outcome: 'deny' });
    await loggerProvider.forceFlush();
    expect(
      exporter
        .getFinishedLogRecords()
        .map((record) => [
          record.attributes[ATTR_GEN_AI_TOOL_NAME],
          record.attributes[ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME],
        ]),
    ).toEqual([['deploy', 'deny']]);
  });
});
