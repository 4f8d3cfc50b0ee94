import type { Tracer } from '@opentelemetry/api';
import { ERROR_TYPE_VALUE_OTHER } from '@opentelemetry/semantic-conventions';
import fc from 'fast-check';
import { type ErrorPolicy, functionToolCallback, type ToolCallback, type ToolCallInfo } from 'otel-tool-calls';

/*
 * The tool behaviours the property and load tests mix: how a tool returns (sync, async, stream)
 * and how it ends. Each call's expected telemetry and caller-visible result is computed from its
 * plan alone, so an invariant broken by interleaving shows up as a mismatch for one call id.
 */

export const TOOL_NAMES = ['search', 'fetch', 'email'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export type Mode = 'sync' | 'async' | 'stream';
/** `reject`: returns a rejected Promise without `async`; `stop`: a stream whose consumer stops early. */
export type Outcome = 'success' | 'error' | 'non-error' | 'reject' | 'abort' | 'stop';

export interface CallPlan {
  readonly tool: ToolName;
  readonly mode: Mode;
  readonly outcome: Outcome;
  /** Which non-Error value is thrown for `non-error`. */
  readonly nonError: 'string' | 'number' | 'undefined' | 'object';
  /** Chunks a stream yields before it ends (or fails). */
  readonly chunks: number;
  /** A real timer of a few ms inside the body, on top of the scheduler's interleaving. */
  readonly slowMs: number;
}

const OUTCOMES_BY_MODE: Record<Mode, readonly Outcome[]> = {
  sync: ['success', 'error', 'non-error', 'reject', 'abort'],
  async: ['success', 'error', 'non-error', 'reject', 'abort'],
  stream: ['success', 'error', 'non-error', 'abort', 'stop'],
};

export const callPlanArbitrary: fc.Arbitrary<CallPlan> = fc
  .constantFrom<Mode>('sync', 'async', 'stream')
  .chain((mode) =>
    fc.record({
      tool: fc.constantFrom(...TOOL_NAMES),
      mode: fc.constant(mode),
      outcome: fc.constantFrom(...OUTCOMES_BY_MODE[mode]),
      nonError: fc.constantFrom('string' as const, 'number' as const, 'undefined' as const, 'object' as const),
      chunks: fc.integer({ min: 1, max: 3 }),
      slowMs:
        mode === 'sync' ? fc.constant(0) : fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 4 })),
    }),
  );

/** Policies the model below can predict: the fixed ones, and two functions. */
export const reportErrorsOnly: ErrorPolicy = (error) => (error instanceof Error ? 'report' : 'rethrow');
export const alwaysReport: ErrorPolicy = () => 'report';
export const policyArbitrary = fc.constantFrom<ErrorPolicy>('report', 'rethrow', reportErrorsOnly, alwaysReport);
export const toolPoliciesArbitrary = fc.dictionary(fc.constantFrom(...TOOL_NAMES), policyArbitrary, {
  maxKeys: 3,
});

export class ToolFailure extends Error {
  override name = 'ToolFailure' as const;
}

/** `error.type` of each failure kind; an abort is the signal's DOMException. */
export function expectedErrorType(plan: CallPlan): string | undefined {
  switch (plan.outcome) {
    case 'success':
    case 'stop':
      return undefined;
    case 'error':
      return 'ToolFailure';
    case 'non-error':
      return ERROR_TYPE_VALUE_OTHER;
    case 'reject':
      return 'EREJECTED';
    case 'abort':
      return 'AbortError';
  }
}

/** What the listener should decide for a failure, by the rules of design.md §3. */
export function expectedDecision(
  plan: CallPlan,
  error: unknown,
  policy: ErrorPolicy,
  toolPolicies: Readonly<Record<string, ErrorPolicy>>,
): 'report' | 'rethrow' {
  const chosen = Object.hasOwn(toolPolicies, plan.tool) ? (toolPolicies[plan.tool] as ErrorPolicy) : policy;
  if (typeof chosen === 'function') return chosen(error, {} as ToolCallInfo);
  return plan.outcome === 'abort' ? 'rethrow' : chosen;
}

/** What a call's body produced, to compare with what the caller got. */
export interface CallRecord {
  readonly plan: CallPlan;
  readonly callId: string;
  readonly controller: AbortController;
  /** The value returned, or the chunks yielded, by the tool itself. */
  produced: unknown[];
  thrown?: { value: unknown };
}

export type Wait = () => Promise<unknown>;

/**
 * A tool that behaves as its call's plan says. The body starts a child span (`body <call id>`)
 * after its first wait, so the test can check that the span active in the body is its own call's.
 */
export function behaviourTool(
  name: ToolName,
  records: ReadonlyMap<string, CallRecord>,
  wait: Wait,
  tracer: Tracer,
): ToolCallback<unknown, unknown> {
  return functionToolCallback({ name, description: `the ${name} tool` }, (_input, toolContext) => {
    const record = records.get(toolContext?.toolCallId as string) as CallRecord;
    const { plan, callId } = record;
    const signal = toolContext?.signal as AbortSignal;
    const bodySpan = () => tracer.startSpan(`body ${callId}`).end();
    const failure = () => failureOf(record, signal);
    const fresh = (index: number) => ({ callId, index });
    const slow = () => (plan.slowMs > 0 ? new Promise((resolve) => setTimeout(resolve, plan.slowMs)) : undefined);

    if (plan.mode === 'sync') {
      bodySpan();
      if (plan.outcome === 'success') return produce(record, fresh(0));
      if (plan.outcome === 'reject') return Promise.reject(failure());
      throw failure();
    }
    if (plan.mode === 'async') {
      if (plan.outcome === 'reject') {
        // a plain Promise chain, not an async function
        return wait().then(() => {
          bodySpan();
          return Promise.reject(failure());
        });
      }
      return (async () => {
        await wait();
        await slow();
        bodySpan();
        if (plan.outcome === 'success') return produce(record, fresh(0));
        if (plan.outcome === 'abort') await untilAborted(signal);
        throw failure();
      })();
    }
    return (async function* stream() {
      for (let index = 0; index < plan.chunks; index++) {
        await wait();
        if (index === 0) {
          await slow();
          bodySpan();
        }
        yield produce(record, fresh(index));
      }
      if (plan.outcome === 'abort') await untilAborted(signal);
      if (plan.outcome === 'error' || plan.outcome === 'non-error' || plan.outcome === 'abort') throw failure();
    })();
  });
}

function produce<T>(record: CallRecord, value: T): T {
  record.produced.push(value);
  return value;
}

function failureOf(record: CallRecord, signal: AbortSignal): unknown {
  const { plan, callId } = record;
  let value: unknown;
  if (plan.outcome === 'abort') value = signal.reason;
  else if (plan.outcome === 'reject') value = Object.assign(new Error(`rejected ${callId}`), { code: 'EREJECTED' });
  else if (plan.outcome === 'error') value = new ToolFailure(`failed ${callId}`);
  else if (plan.nonError === 'string') value = `failed ${callId}`;
  else if (plan.nonError === 'number') value = 42;
  else if (plan.nonError === 'undefined') value = undefined;
  else value = { reason: `failed ${callId}` };
  record.thrown = { value };
  return value;
}

/** Resolves once the caller aborts; the tool then throws the signal's reason, as fetch does. */
function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
