import { functionToolCallback, type RemoteCallInfo, ToolCallListeners } from 'otel-tool-calls';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  METRIC_MCP_SERVER_OPERATION_DURATION,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

/*
 * An adapter hands the same frozen attributes call after call (an MCP session's): the listener keeps
 * what it derives from them (their bounded copy, a success's protocol sample attributes). What it
 * keeps must be what it would have derived again: other attributes, attributes that can change, and
 * a failure after successes are each recorded as they are.
 */

const telemetry = useTestTelemetry();

const weather = functionToolCallback({ name: 'weather' }, () => 'sunny');
const remote: RemoteCallInfo = { protocol: 'mcp', side: 'server', operation: 'tools/call' };
const session = (version: string) =>
  Object.freeze({ [ATTR_MCP_METHOD_NAME]: 'tools/call', [ATTR_MCP_PROTOCOL_VERSION]: version });

/** The server operation samples: their protocol versions and counts. */
async function samplesByVersion() {
  const points = await telemetry.histogramPoints(METRIC_MCP_SERVER_OPERATION_DURATION);
  return points.map(({ attributes, value }) => [attributes[ATTR_MCP_PROTOCOL_VERSION], value.count]);
}

const versionsOnSpans = () =>
  telemetry
    .spans()
    .filter((span) => span.name === 'tools/call weather')
    .map((span) => span.attributes[ATTR_MCP_PROTOCOL_VERSION]);

describe('attributes handed again by an adapter', () => {
  it('the same frozen object: the same span attributes and one protocol sample series', async () => {
    const listener = telemetry.listener();
    const attributes = session('2025-06-18');
    for (let i = 0; i < 3; i++) ToolCallListeners.wrap(weather, listener).call({}, { remote, attributes });

    expect(versionsOnSpans()).toEqual(['2025-06-18', '2025-06-18', '2025-06-18']);
    expect(await samplesByVersion()).toEqual([['2025-06-18', 3]]);
    const [point] = await telemetry.histogramPoints(METRIC_MCP_SERVER_OPERATION_DURATION);
    expect(point?.attributes).toEqual({
      [ATTR_MCP_METHOD_NAME]: 'tools/call',
      [ATTR_MCP_PROTOCOL_VERSION]: '2025-06-18',
      [ATTR_GEN_AI_TOOL_NAME]: 'weather',
      [ATTR_GEN_AI_OPERATION_NAME]: 'execute_tool',
    });
  });

  it('another frozen object, then the first again: each call records its own', async () => {
    const listener = telemetry.listener();
    const call = (version: string) =>
      ToolCallListeners.wrap(weather, listener).call({}, { remote, attributes: session(version) });
    call('2025-06-18');
    call('2025-11-25');
    call('2025-06-18');

    expect(versionsOnSpans()).toEqual(['2025-06-18', '2025-11-25', '2025-06-18']);
    expect(await samplesByVersion()).toEqual([
      ['2025-06-18', 2],
      ['2025-11-25', 1],
    ]);
  });

  it('an object that can change (not frozen, or frozen with a getter) is read at each call', async () => {
    const listener = telemetry.listener();
    const open: Record<string, string> = { [ATTR_MCP_PROTOCOL_VERSION]: '2025-06-18' };
    let version = '2025-06-18';
    const withGetter = Object.freeze(
      Object.defineProperty({}, ATTR_MCP_PROTOCOL_VERSION, { get: () => version, enumerable: true }),
    );
    for (const attributes of [open, withGetter]) {
      ToolCallListeners.wrap(weather, listener).call({}, { remote, attributes });
      open[ATTR_MCP_PROTOCOL_VERSION] = '2025-11-25';
      version = '2025-11-25';
      ToolCallListeners.wrap(weather, listener).call({}, { remote, attributes });
      open[ATTR_MCP_PROTOCOL_VERSION] = '2025-06-18';
      version = '2025-06-18';
    }

    expect(versionsOnSpans()).toEqual(['2025-06-18', '2025-11-25', '2025-06-18', '2025-11-25']);
    expect(await samplesByVersion()).toEqual([
      ['2025-06-18', 2],
      ['2025-11-25', 2],
    ]);
  });

  it('a failure after successes with the same object is its own series, with its error.type', async () => {
    const listener = telemetry.listener();
    const attributes = session('2025-06-18');
    const failing = functionToolCallback({ name: 'weather' }, () => {
      throw new RangeError('the barometer broke');
    });
    ToolCallListeners.wrap(weather, listener).call({}, { remote, attributes });
    expect(() => ToolCallListeners.wrap(failing, listener).call({}, { remote, attributes })).toThrow(RangeError);
    ToolCallListeners.wrap(weather, listener).call({}, { remote, attributes });

    const points = await telemetry.histogramPoints(METRIC_MCP_SERVER_OPERATION_DURATION);
    expect(points.map(({ attributes: sample, value }) => [sample['error.type'], value.count])).toEqual([
      [undefined, 2],
      ['RangeError', 1],
    ]);
  });
});
