import { functionToolCallback, ToolCallListeners, type ToolContext } from 'otel-tool-calls';
import { ATTR_GEN_AI_TOOL_DESCRIPTION, ATTR_GEN_AI_TOOL_TYPE } from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();

/** The documented bounds (docs/guarantees.md, "Bounds under hostile conditions"), `…` included. */
const MAX_ATTRIBUTE_LENGTH = 256;
const MAX_DESCRIPTION_LENGTH = 1024;
const MAX_EXTRA_ATTRIBUTES = 32;
const MB = 1024 * 1024;

const echo = (description?: unknown) =>
  functionToolCallback({ name: 'echo', description: description as string }, (input: unknown) => input);

describe('every value that comes from a peer or the app is bounded before it reaches a span', () => {
  it('adapter-supplied attributes: each value cut to 256 characters, at most 32 kept, long keys left out', () => {
    const attributes: Record<string, unknown> = { 'mcp.session.id': 's'.repeat(MB), ['k'.repeat(MB)]: 'long key' };
    for (let index = 0; index < 10_000; index++) attributes[`peer.${index}`] = index;
    ToolCallListeners.wrap(echo(), telemetry.listener()).call(1, { attributes } as unknown as ToolContext);

    const span = telemetry.span('execute_tool echo');
    const sessionId = span.attributes['mcp.session.id'] as string;
    expect(sessionId.length).toBe(MAX_ATTRIBUTE_LENGTH);
    expect(sessionId.endsWith('…')).toBe(true);
    expect(Object.keys(span.attributes).some((key) => key.length > MAX_ATTRIBUTE_LENGTH)).toBe(false);
    const extra = Object.keys(span.attributes).filter((key) => key.startsWith('peer.') || key.startsWith('mcp.'));
    expect(extra).toHaveLength(MAX_EXTRA_ATTRIBUTES);
  });

  it('an adapter-supplied gen_ai.tool.type is bounded in the span and in the metrics', async () => {
    const attributes = { [ATTR_GEN_AI_TOOL_TYPE]: 't'.repeat(MB) };
    ToolCallListeners.wrap(echo(), telemetry.listener()).call(1, { attributes } as ToolContext);

    const type = telemetry.span('execute_tool echo').attributes[ATTR_GEN_AI_TOOL_TYPE] as string;
    expect(type.length).toBe(MAX_ATTRIBUTE_LENGTH);
    const [point] = await telemetry.histogramPoints('gen_ai.execute_tool.duration');
    expect(point?.attributes[ATTR_GEN_AI_TOOL_TYPE]).toBe(type);
  });

  it('gen_ai.tool.description: cut to 1,024 characters; one whose getter throws is left out, the tool still runs', () => {
    ToolCallListeners.wrap(echo('d'.repeat(MB)), telemetry.listener()).call(1);
    const description = telemetry.span('execute_tool echo').attributes[ATTR_GEN_AI_TOOL_DESCRIPTION] as string;
    expect(description.length).toBe(MAX_DESCRIPTION_LENGTH);
    expect(description.endsWith('…')).toBe(true);

    const throwingDefinition = Object.defineProperty({ name: 'hostile' }, 'description', {
      get() {
        throw new Error('description getter bug');
      },
    });
    const hostile = functionToolCallback(throwingDefinition, (input: number) => input + 1);
    expect(ToolCallListeners.wrap(hostile, telemetry.listener()).call(1)).toBe(2);
    const span = telemetry.span('execute_tool hostile');
    expect(span.attributes[ATTR_GEN_AI_TOOL_DESCRIPTION]).toBeUndefined();
  });
});
