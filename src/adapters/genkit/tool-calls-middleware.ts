import { trace as traceApi } from '@opentelemetry/api';
import { type GenerateMiddleware, generateMiddleware, type ToolRequestPart, type ToolResponsePart } from 'genkit';
import { observeCall } from '../../internal/observe-call.js';
import { assertListener } from '../../internal/validate.js';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
} from '../../otel/semconv.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { FRAMEWORK_GENKIT } from '../frameworks.js';
import { holdSpanEnd } from './held-span-end.js';

type MiddlewareDef = ReturnType<GenerateMiddleware['instantiate']>;
type ToolHook = NonNullable<MiddlewareDef['tool']>;
type RunOptions = Parameters<ToolHook>[1];
type Next = Parameters<ToolHook>[2];
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
    () => ({ tool: (request, options, next) => observedToolRequest(request, options, next, listener) }),
  );
  return middleware();
}

/** What a tool's interrupt resolves the observed call to: the call ended, and the interrupt is rethrown. */
interface Interrupted {
  readonly interrupt: unknown;
}

async function observedToolRequest(
  request: ToolRequestPart,
  options: RunOptions,
  next: Next,
  listener: ToolCallListener<unknown>,
): Promise<ToolResponsePart | undefined> {
  const { name, ref, input } = request.toolRequest;
  let observed: Promise<ToolResponsePart | Interrupted | undefined> | undefined;
  let releaseSpan = () => {};
  let handed: Promise<ToolResponsePart | Interrupted | undefined> | undefined;
  const observe = () =>
    observeCall(
      {
        definition: { name },
        metadata: {},
        input,
        toolContext: { toolCallId: ref, framework: FRAMEWORK_GENKIT },
        run: () => handed as Promise<ToolResponsePart | Interrupted | undefined>,
        report: (text): ToolResponsePart => ({ toolResponse: { name, ref, output: text } }),
      },
      listener,
    );
  const labels: Record<string, string> = {
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
    [ATTR_GEN_AI_TOOL_NAME]: name,
  };
  if (ref !== undefined) labels[ATTR_GEN_AI_TOOL_CALL_ID] = ref;
  handed = next(request, {
    ...options,
    telemetryLabels: { ...options?.telemetryLabels, ...labels },
    onTraceStart(trace) {
      // in Genkit's tool action span, which is the active one here: the listener joins it, and
      // Genkit's end of it waits for the listener's outcome (held-span-end.ts)
      if (observed === undefined) {
        releaseSpan = holdSpanEnd(traceApi.getActiveSpan());
        observed = observe();
      }
      options?.onTraceStart?.(trace);
    },
  }).catch((error: unknown) => {
    if (isInterrupt(error)) return { interrupt: error };
    throw error;
  });
  // Genkit refused the call before its span started (input that fails the tool's schema): observed here
  if (observed === undefined) await handed.catch(() => undefined);
  let outcome: ToolResponsePart | Interrupted | undefined;
  try {
    outcome = await (observed ?? observe());
  } finally {
    releaseSpan();
  }
  if (outcome !== undefined && 'interrupt' in outcome) throw outcome.interrupt;
  return outcome;
}

/** By name, as Genkit itself also tests it (the class may come from another copy of Genkit). */
function isInterrupt(error: unknown): boolean {
  try {
    return error !== null && typeof error === 'object' && (error as { name?: unknown }).name === 'ToolInterruptError';
  } catch {
    return false;
  }
}
