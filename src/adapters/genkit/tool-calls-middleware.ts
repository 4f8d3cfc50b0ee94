import { type GenerateMiddleware, generateMiddleware } from 'genkit';
import { assertListener } from '../../internal/validate.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { observingToolHook } from './observed-tool-request.js';

/** What `toolCallsMiddleware` returns: a configured middleware, for `generate({ use: [...] })`. */
export type ToolCallsMiddleware = ReturnType<GenerateMiddleware>;

// each middleware registers under its name: two listeners need two names
let created = 0;

/**
 * A Genkit generate middleware that reports every tool call of the `generate` calls that use it
 * to `listener`: `ai.generate({ ..., tools, use: [toolCallsMiddleware(listener)] })`. The listener
 * sees the model's call id (the tool request's `ref`) as `toolCallId`.
 *
 * One span per call: Genkit's own tool action span (named after the tool) is the call's span. Its
 * tool calls are handed on with `gen_ai.operation.name` = `execute_tool`, `gen_ai.tool.name` and
 * `gen_ai.tool.call.id` as span attributes from its start, and the listener starts when Genkit's
 * span does (its `onTraceStart`), so the `OpenTelemetryToolCallListener` joins that span instead of
 * opening a second one. Genkit ends its span before the middleware sees the outcome, so its end is
 * held until the listener has recorded it (the span still ends when Genkit ended it): a failure has
 * Genkit's status and exception event and the listener's `error.type` and `tool_call.error.outcome`,
 * a success its captured result. Genkit passes the tool function no call id (its options have
 * none); the id is on the span.
 *
 * When the listener reports an error, the reported text is the tool's output the model sees. A
 * tool's interrupt (`ToolInterruptError`, Genkit's way to pause for the user) is not a failure: it
 * passes through, and the call is reported as completed.
 *
 * @example
 * const response = await ai.generate({ prompt, tools: [weather], use: [toolCallsMiddleware(listener)] });
 */
export function toolCallsMiddleware<Context = unknown>(listener: ToolCallListener<Context>): ToolCallsMiddleware {
  assertListener(listener, 'toolCallsMiddleware');
  created += 1;
  const middleware = generateMiddleware(
    { name: `otel-tool-calls-${created}`, description: 'Reports each tool call to an otel-tool-calls listener' },
    () => ({ tool: observingToolHook(listener as ToolCallListener<unknown>) }),
  );
  return middleware();
}
