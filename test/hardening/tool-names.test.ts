import { OpenTelemetryToolCallListener, type ToolCallback, ToolCallListeners } from 'otel-tool-calls';
import { ATTR_GEN_AI_TOOL_NAME, METRIC_GEN_AI_EXECUTE_TOOL_DURATION } from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../helpers/otel-sdk.js';
import { recordingListener } from '../helpers/recording-listener.js';

const telemetry = useTestTelemetry();

/** A framework's tool object as an adapter might pass it: whatever its `name` is. */
function toolNamed(definition: () => { name: unknown }): ToolCallback<number, number> {
  return {
    getToolDefinition: definition as never,
    getToolMetadata: () => ({}),
    call: (input: number) => input * 2,
  };
}

const throwingToString = {
  toString() {
    throw new Error('toString bug');
  },
};

describe('a tool name that is not a string never keeps the tool from running', () => {
  it.each([
    ['a Symbol', () => ({ name: Symbol('search') }), 'Symbol(search)'],
    ['a number', () => ({ name: 42 }), '42'],
    ['an object whose toString throws', () => ({ name: throwingToString }), '[unnamed tool]'],
    [
      'a name getter that throws',
      () =>
        Object.defineProperty({}, 'name', {
          get() {
            throw new Error('name getter bug');
          },
        }) as { name: unknown },
      '[unnamed tool]',
    ],
  ])(
    '%s: the tool runs, listeners get a string, the call is recorded under it',
    async (_name, definition, expected) => {
      const recording = recordingListener();
      const wrapped = ToolCallListeners.wrap(
        toolNamed(definition),
        ToolCallListeners.composite(telemetry.listener(), recording),
      );
      expect(wrapped.call(21)).toBe(42);
      expect(recording.events.map((event) => event.toolName)).toEqual([expected, expected, expected]);
      expect(telemetry.span(`execute_tool ${expected}`).attributes[ATTR_GEN_AI_TOOL_NAME]).toBe(expected);
      const points = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
      expect(points.map((point) => point.attributes[ATTR_GEN_AI_TOOL_NAME])).toEqual([expected]);
    },
  );

  it('the OpenTelemetry listener called directly with a Symbol name does not throw', () => {
    const listener = telemetry.listener({ errorPolicy: 'report' });
    const name = Symbol('direct') as unknown as string;
    const call = { toolDefinition: { name } };
    const context = listener.beforeCall(name, undefined, call);
    expect(listener.onError(context, name, undefined, new Error('x'), call)).toBe("Tool 'Symbol(direct)' failed: x");
    listener.afterCompletion(context, name, undefined, call);
    expect(telemetry.spans().map((span) => span.name)).toEqual(['execute_tool Symbol(direct)']);
  });
});

describe('a throwing getToolDefinition() or getToolMetadata() never stops the tool', () => {
  const throwing = (): never => {
    throw new Error('definition bug');
  };
  const hostileTool: ToolCallback<number, number> = {
    getToolDefinition: throwing,
    getToolMetadata: throwing,
    call: (input: number) => input * 2,
  };

  it('with an SDK: the tool runs, and the call is recorded as [unnamed tool]', async () => {
    expect(ToolCallListeners.wrap(hostileTool, telemetry.listener()).call(21)).toBe(42);
    expect(telemetry.spans().map((span) => span.name)).toEqual(['execute_tool [unnamed tool]']);
  });

  it('without an SDK, with a policy that may report: the tool runs, and its failure is reported', () => {
    const failing: ToolCallback<number, number> = {
      ...hostileTool,
      call: () => {
        throw new Error('tool bug');
      },
    };
    const listener = new OpenTelemetryToolCallListener({ errorPolicy: 'report' });
    expect(ToolCallListeners.wrap(hostileTool, listener).call(21)).toBe(42);
    expect(ToolCallListeners.wrap(failing, listener).call(21)).toBe("Tool '[unnamed tool]' failed: tool bug");
  });
});
