import { trace as traceApi } from '@opentelemetry/api';
import type { GenerateMiddleware, ToolRequestPart, ToolResponsePart } from 'genkit';
import { forwardingObject } from '../../internal/forwarding-object.js';
import { observeCall } from '../../internal/observe-call.js';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
} from '../../otel/semconv.js';
import type { ToolCallListener, ToolCallRejection } from '../../tool-call-listener.js';
import { FRAMEWORK_GENKIT } from '../frameworks.js';
import { holdSpanEnd } from './held-span-end.js';

type MiddlewareDef = ReturnType<GenerateMiddleware['instantiate']>;
/** A generate middleware's `tool` hook: what `toolCallsMiddleware` and zero-code give Genkit. */
export type ToolHook = NonNullable<MiddlewareDef['tool']>;
type RunOptions = Parameters<ToolHook>[1];
type Next = Parameters<ToolHook>[2];

/** The `tool` hook that observes each tool request through `listener` (loads nothing of Genkit). */
export function observingToolHook(listener: ToolCallListener<unknown>): ToolHook {
  return (request, options, next) => observedToolRequest(request, options, next, listener);
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
  let rejection: ToolCallRejection | undefined;
  const observe = () =>
    observeCall(
      {
        definition: { name },
        metadata: {},
        input,
        toolContext: { toolCallId: ref, framework: FRAMEWORK_GENKIT, rejection },
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
  const onTraceStart: NonNullable<RunOptions>['onTraceStart'] = (trace) => {
    // in Genkit's tool action span, which is the active one here: the listener joins it, and
    // Genkit's end of it waits for the listener's outcome (held-span-end.ts)
    if (observed === undefined) {
      releaseSpan = holdSpanEnd(traceApi.getActiveSpan());
      observed = observe();
    }
    options?.onTraceStart?.(trace);
  };
  // the options and their labels as given, with ours added: stand-ins, not copies (forwarding-object.ts)
  const telemetryLabels = forwardingObject(options?.telemetryLabels ?? {}, new Map(Object.entries(labels)));
  const observedOptions = forwardingObject(
    options ?? {},
    new Map<string, unknown>([
      ['telemetryLabels', telemetryLabels],
      ['onTraceStart', onTraceStart],
    ]),
  );
  handed = next(request, observedOptions).catch((error: unknown) => {
    if (isInterrupt(error)) return { interrupt: error };
    throw error;
  });
  // Genkit refused the call before its span started (input that fails the tool's schema): observed
  // here, as the model's failure (its error quotes the arguments: rejected-input.ts)
  if (observed === undefined) {
    const refusal = await handed.then(
      () => undefined,
      (error: unknown) => error,
    );
    if (isSchemaRefusal(refusal)) rejection = 'invalid_input';
  }
  let outcome: ToolResponsePart | Interrupted | undefined;
  try {
    outcome = await (observed ?? observe());
  } finally {
    releaseSpan();
  }
  if (outcome !== undefined && 'interrupt' in outcome) throw outcome.interrupt;
  return outcome;
}

/** Genkit's refusal of a tool request's input (its `ValidationError`, status `INVALID_ARGUMENT`). */
function isSchemaRefusal(error: unknown): boolean {
  try {
    return error !== null && typeof error === 'object' && (error as { status?: unknown }).status === 'INVALID_ARGUMENT';
  } catch {
    return false;
  }
}

/** By name, as Genkit itself also tests it (the class may come from another copy of Genkit). */
function isInterrupt(error: unknown): boolean {
  try {
    return error !== null && typeof error === 'object' && (error as { name?: unknown }).name === 'ToolInterruptError';
  } catch {
    return false;
  }
}
