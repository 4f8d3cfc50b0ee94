import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { functionToolCallback, ToolCallListeners } from 'otel-tool-calls';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();

/** The documented bound (docs/guarantees.md), `…` included. */
const MAX_ATTRIBUTE_LENGTH = 256;
const MB = 1024 * 1024;

async function metricAttributeLengths(): Promise<number[]> {
  const points = [
    ...(await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION)),
    ...(await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS)),
  ];
  return points.flatMap((point) => Object.values(point.attributes).map((value) => String(value).length));
}

describe('metric attributes are bounded', () => {
  it.each([
    ['a 1 MB error.code', Object.assign(new Error('x'), { code: 'E'.repeat(MB) })],
    ['a 1 MB error name', Object.assign(new Error('x'), { name: 'N'.repeat(MB) })],
  ])('%s is cut to the bound in the histogram, the counter and the span', async (_name, thrown) => {
    const tool = functionToolCallback({ name: 'fails' }, () => {
      throw thrown;
    });
    expect(() => ToolCallListeners.wrap(tool, telemetry.listener()).call(undefined)).toThrow(thrown);
    const lengths = await metricAttributeLengths();
    expect(Math.max(...lengths)).toBeLessThanOrEqual(MAX_ATTRIBUTE_LENGTH);
    const errorType = telemetry.span('execute_tool fails').attributes[ATTR_ERROR_TYPE] as string;
    expect(errorType.length).toBe(MAX_ATTRIBUTE_LENGTH);
    expect(errorType.endsWith('…')).toBe(true);
  });

  it('a 1 MB tool name and agent name: cut in the metrics, the span name and its attributes', async () => {
    const longName = 't'.repeat(MB);
    const tool = functionToolCallback({ name: longName }, () => 'ok');
    const listener = telemetry.listener({ agentName: 'a'.repeat(MB) });
    expect(ToolCallListeners.wrap(tool, listener).call(undefined)).toBe('ok');
    expect(Math.max(...(await metricAttributeLengths()))).toBeLessThanOrEqual(MAX_ATTRIBUTE_LENGTH);
    const [span] = telemetry.spans();
    if (span === undefined) throw new Error('no span');
    expect((span.attributes[ATTR_GEN_AI_TOOL_NAME] as string).length).toBe(MAX_ATTRIBUTE_LENGTH);
    expect((span.attributes[ATTR_GEN_AI_AGENT_NAME] as string).length).toBe(MAX_ATTRIBUTE_LENGTH);
    expect(span.name.length).toBeLessThanOrEqual(MAX_ATTRIBUTE_LENGTH + 'execute_tool '.length);
  });

  it('a per-tool policy still applies to a tool whose name is past the bound', () => {
    const longName = 'p'.repeat(1000);
    const tool = functionToolCallback({ name: longName }, () => {
      throw new Error('down');
    });
    const listener = telemetry.listener({ toolErrorPolicies: { [longName]: 'report' } });
    const text = ToolCallListeners.wrap(tool, listener).call(undefined) as string;
    expect(text.endsWith('failed: down')).toBe(true);
    expect(text.length).toBeLessThan(400);
  });
});
