import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import type { DataPoint, Histogram } from '@opentelemetry/sdk-metrics';
import {
  ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  EVENT_GEN_AI_TOOL_CALL_DECISION,
} from 'otel-tool-calls/semconv';
import { expect } from 'vitest';

/**
 * A logger provider that keeps its records in memory, and the decisions it got (each checked to be a
 * `gen_ai.tool.call.decision` event): `{tool} {call id} {outcome}`, in order; `records()` whole.
 */
export function inMemoryLogs() {
  const exporter = new InMemoryLogRecordExporter();
  const loggerProvider = new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter })] });
  const records = async () => {
    await loggerProvider.forceFlush();
    const finished = exporter.getFinishedLogRecords();
    for (const record of finished) expect(record.eventName).toBe(EVENT_GEN_AI_TOOL_CALL_DECISION);
    return finished;
  };
  return {
    loggerProvider,
    records,
    async decisions() {
      return (await records()).map(({ attributes }) => {
        return `${attributes[ATTR_GEN_AI_TOOL_NAME]} ${attributes[ATTR_GEN_AI_TOOL_CALL_ID]} ${attributes[ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME]}`;
      });
    },
  };
}

/**
 * The approval waits recorded (`tool_call.approval.duration`): one sample for an `allow` and one for
 * a `deny`, each at least the human's `waitMs` (less 5 ms of timer slack) and under a minute.
 */
export function expectOneWaitPerAnswer(waits: DataPoint<Histogram>[], waitMs: number): void {
  expect(waits.map((point) => point.attributes[ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME]).sort()).toEqual([
    'allow',
    'deny',
  ]);
  for (const { value } of waits) {
    expect(value.count).toBe(1);
    expect(value.sum).toBeGreaterThanOrEqual(waitMs / 1000 - 0.005);
    expect(value.sum).toBeLessThan(60);
  }
}
