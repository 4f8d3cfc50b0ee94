import { type Attributes, context, metrics, SpanKind, trace } from '@opentelemetry/api';
import type { ToolCallback, ToolContext } from 'otel-tool-calls';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  GEN_AI_DURATION_BUCKETS,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
} from 'otel-tool-calls/semconv';

/** What a benchmark case calls: the tool itself, a wrapped tool, or the floor. */
export interface Callable<Input, Output> {
  call(toolInput: Input, toolContext?: ToolContext): Output;
}

/**
 * The floor: the least OpenTelemetry code that does the work the listener does on success, written
 * by hand for this one tool. A span with the same name and attributes, the tool run in the span's
 * context with `context.with`, the span ended, one histogram sample of the span's duration (the same
 * two `performance.now()` readings for both, as the listener does). No error handling beyond
 * `finally`, no hooks, no options: what the listener adds on top of this is its overhead.
 */
function floorInstruments() {
  const tracer = trace.getTracer('bench-floor');
  // its own meter scope, so that the instrument does not collide with the listener's
  const histogram = metrics
    .getMeterProvider()
    .getMeter('bench-floor')
    .createHistogram(METRIC_GEN_AI_EXECUTE_TOOL_DURATION, {
      unit: 's',
      advice: { explicitBucketBoundaries: [...GEN_AI_DURATION_BUCKETS] },
    });
  return { tracer, histogram };
}

function spanAttributes(name: string, description: string | undefined, toolContext?: ToolContext): Attributes {
  const attributes: Attributes = {
    [ATTR_GEN_AI_OPERATION_NAME]: 'execute_tool',
    [ATTR_GEN_AI_TOOL_NAME]: name,
    [ATTR_GEN_AI_TOOL_TYPE]: 'function',
  };
  if (toolContext?.toolCallId !== undefined) attributes[ATTR_GEN_AI_TOOL_CALL_ID] = toolContext.toolCallId;
  if (description !== undefined) attributes[ATTR_GEN_AI_TOOL_DESCRIPTION] = description;
  return attributes;
}

export function floorAsync<Input, Output>(
  tool: ToolCallback<Input, Promise<Output>>,
): Callable<Input, Promise<Output>> {
  const { tracer, histogram } = floorInstruments();
  const { name, description } = tool.getToolDefinition();
  return {
    async call(toolInput, toolContext) {
      const startTime = performance.now();
      const parent = context.active();
      const span = tracer.startSpan(
        `execute_tool ${name}`,
        { kind: SpanKind.INTERNAL, attributes: spanAttributes(name, description, toolContext), startTime },
        parent,
      );
      try {
        return await context.with(trace.setSpan(parent, span), () => tool.call(toolInput, toolContext));
      } finally {
        const endTime = performance.now();
        span.end(endTime);
        histogram.record((endTime - startTime) / 1000, {
          [ATTR_GEN_AI_TOOL_NAME]: name,
          [ATTR_GEN_AI_TOOL_TYPE]: 'function',
        });
      }
    },
  };
}

export function floorSync<Input, Output>(tool: ToolCallback<Input, Output>): Callable<Input, Output> {
  const { tracer, histogram } = floorInstruments();
  const { name, description } = tool.getToolDefinition();
  return {
    call(toolInput, toolContext) {
      const startTime = performance.now();
      const parent = context.active();
      const span = tracer.startSpan(
        `execute_tool ${name}`,
        { kind: SpanKind.INTERNAL, attributes: spanAttributes(name, description, toolContext), startTime },
        parent,
      );
      try {
        return context.with(trace.setSpan(parent, span), () => tool.call(toolInput, toolContext));
      } finally {
        const endTime = performance.now();
        span.end(endTime);
        histogram.record((endTime - startTime) / 1000, {
          [ATTR_GEN_AI_TOOL_NAME]: name,
          [ATTR_GEN_AI_TOOL_TYPE]: 'function',
        });
      }
    },
  };
}
