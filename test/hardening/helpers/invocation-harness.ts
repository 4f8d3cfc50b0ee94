import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import {
  type ErrorPolicy,
  OpenTelemetryToolCallListener,
  type ToolCallback,
  type ToolCallListener,
  ToolCallListeners,
} from 'otel-tool-calls';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import type { TestTelemetry } from '../../helpers/otel-sdk.js';
import {
  behaviourTool,
  type CallPlan,
  type CallRecord,
  expectedDecision,
  expectedErrorType,
  TOOL_NAMES,
  type Wait,
} from './tool-behaviours.js';

/** What the caller of one wrapped call saw. */
export type CallerView =
  | { readonly kind: 'value'; readonly sync: boolean; readonly value: unknown }
  | { readonly kind: 'chunks'; readonly chunks: unknown[]; readonly error?: { value: unknown } }
  | { readonly kind: 'threw'; readonly sync: boolean; readonly error: unknown };

export interface HarnessOptions {
  readonly telemetry: TestTelemetry;
  readonly errorPolicy: ErrorPolicy;
  readonly toolErrorPolicies: Readonly<Record<string, ErrorPolicy>>;
  /** Composite order: the OpenTelemetry listener first (outermost) or second. */
  readonly otelFirst: boolean;
  /** A suspension point inside tool bodies (the scheduler's, or a real tick). */
  readonly wait: Wait;
  /** Resolves when a call may start, and when an abortable call is aborted. */
  readonly gate: Wait;
  /** At most this many calls in flight; all at once when absent. */
  readonly inFlight?: number;
  /** Call ids are `${idPrefix}${index}`. */
  readonly idPrefix: string;
}

/**
 * A second listener next to the OpenTelemetry one in the composite: it proves each listener gets
 * back its own context, and counts `afterCompletion` per call id.
 */
function correlationChecker(violations: string[], completions: Map<string, number>): ToolCallListener<string> {
  return {
    beforeCall: (_name, _input, call) => call.toolCallId as string,
    onError: () => undefined,
    afterCompletion(callId, _name, _input, call) {
      if (callId !== call.toolCallId) violations.push(`checker context ${callId} completed for ${call.toolCallId}`);
      completions.set(callId, (completions.get(callId) ?? 0) + 1);
    },
  };
}

/** Runs every plan through `composite(OpenTelemetry listener, checker)` and checks each caller view. */
export async function runPlans(plans: readonly CallPlan[], options: HarnessOptions) {
  const { telemetry } = options;
  const violations: string[] = [];
  const completions = new Map<string, number>();
  const records = new Map<string, CallRecord>();
  const parents = new Map<string, string>();
  const otel = new OpenTelemetryToolCallListener({
    tracerProvider: telemetry.tracerProvider,
    meterProvider: telemetry.meterProvider,
    errorPolicy: options.errorPolicy,
    toolErrorPolicies: options.toolErrorPolicies,
  });
  const checker = correlationChecker(violations, completions);
  const listener = ToolCallListeners.composite(...(options.otelFirst ? [otel, checker] : [checker, otel]));
  const tools = new Map(
    TOOL_NAMES.map((name) => [
      name,
      ToolCallListeners.wrap(behaviourTool(name, records, options.wait, telemetry.tracer), listener),
    ]),
  );

  let inFlight = 0;
  let maxInFlight = 0;
  const one = async (plan: CallPlan, index: number) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const callId = `${options.idPrefix}${index}`;
    const record: CallRecord = { plan, callId, controller: new AbortController(), produced: [] };
    records.set(callId, record);
    if (plan.outcome === 'abort') {
      if (plan.mode === 'sync') record.controller.abort();
      else void options.gate().then(() => record.controller.abort());
    }
    const parent = telemetry.tracer.startSpan(`invoke ${callId}`);
    parents.set(callId, parent.spanContext().spanId);
    const view = await context.with(trace.setSpan(context.active(), parent), () =>
      callAndObserve(tools.get(plan.tool) as ToolCallback, record),
    );
    parent.end();
    inFlight -= 1;
    checkCallerView(record, view, options, violations);
  };

  if (options.inFlight === undefined) {
    await Promise.all(plans.map((plan, index) => options.gate().then(() => one(plan, index))));
  } else {
    let next = 0;
    const lane = async () => {
      while (next < plans.length) {
        const index = next++;
        await one(plans[index] as CallPlan, index);
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.inFlight, plans.length) }, lane));
  }
  for (const callId of records.keys()) {
    if (completions.get(callId) !== 1)
      violations.push(`${callId}: afterCompletion ran ${completions.get(callId)} times`);
  }
  return { violations, records, parents, maxInFlight };
}

async function callAndObserve(tool: ToolCallback, record: CallRecord): Promise<CallerView> {
  const toolContext = { toolCallId: record.callId, signal: record.controller.signal };
  let returned: unknown;
  try {
    returned = tool.call({ callId: record.callId }, toolContext);
  } catch (error) {
    return { kind: 'threw', sync: true, error };
  }
  if (record.plan.mode === 'stream') {
    const chunks: unknown[] = [];
    try {
      for await (const chunk of returned as AsyncIterable<unknown>) {
        chunks.push(chunk);
        if (record.plan.outcome === 'stop') break;
      }
    } catch (error) {
      return { kind: 'chunks', chunks, error: { value: error } };
    }
    return { kind: 'chunks', chunks };
  }
  if (!(returned instanceof Promise)) return { kind: 'value', sync: true, value: returned };
  try {
    return { kind: 'value', sync: false, value: await returned };
  } catch (error) {
    return { kind: 'threw', sync: false, error };
  }
}

/** Successful results unchanged (same identity), sync kept sync, report vs rethrow as the policy says. */
function checkCallerView(record: CallRecord, view: CallerView, options: HarnessOptions, violations: string[]) {
  const { plan, callId, produced } = record;
  const fail = (what: string) => violations.push(`${callId} (${plan.mode} ${plan.outcome}): ${what}`);
  const sameChunks = (chunks: unknown[], expected: unknown[]) =>
    chunks.length >= expected.length && expected.every((chunk, index) => chunks[index] === chunk);
  const expectSync = plan.mode === 'sync' && plan.outcome !== 'reject';

  if (plan.outcome === 'success' || plan.outcome === 'stop') {
    if (view.kind === 'chunks') {
      const expected = plan.outcome === 'stop' ? produced.slice(0, 1) : produced;
      if (view.error || view.chunks.length !== expected.length || !sameChunks(view.chunks, expected)) {
        fail('stream chunks changed');
      }
    } else if (view.kind !== 'value' || view.value !== produced[0] || view.sync !== expectSync) {
      fail(`result not returned unchanged: ${view.kind}`);
    }
    return;
  }
  const thrown = record.thrown;
  if (!thrown) return void fail('the tool never failed');
  const decision = expectedDecision(plan, thrown.value, options.errorPolicy, options.toolErrorPolicies);
  const reportPrefix = `Tool '${plan.tool}' failed: `;
  if (view.kind === 'chunks') {
    const passed = sameChunks(view.chunks, produced);
    if (decision === 'report') {
      const last = view.chunks[produced.length];
      if (
        !passed ||
        view.error ||
        view.chunks.length !== produced.length + 1 ||
        !String(last).startsWith(reportPrefix)
      ) {
        fail('stream did not end with the reported text');
      }
    } else if (!passed || !view.error || !Object.is(view.error.value, thrown.value)) {
      fail('stream did not rethrow the same error');
    }
    return;
  }
  if (decision === 'report') {
    if (view.kind !== 'value' || typeof view.value !== 'string' || !view.value.startsWith(reportPrefix)) {
      fail(`expected a reported text, got ${view.kind}`);
    } else if (view.sync !== expectSync) fail('sync-ness changed');
  } else if (view.kind !== 'threw' || !Object.is(view.error, thrown.value) || view.sync !== expectSync) {
    fail(`expected the same error rethrown, got ${view.kind}`);
  }
}

/**
 * The telemetry invariants: one ended span per call with its own call id, parented by the span
 * active at the call, the body's span its child; status, `error.type` and outcome as the plan
 * says; histogram and error counter counts by tool and outcome.
 */
export async function checkTelemetry(
  run: Awaited<ReturnType<typeof runPlans>>,
  options: Pick<HarnessOptions, 'telemetry' | 'errorPolicy' | 'toolErrorPolicies'>,
): Promise<string[]> {
  const { telemetry } = options;
  const violations: string[] = [];
  const toolSpans = new Map<string, { spanId: string; traceId: string }>();
  const bodies = new Map<string, { parentSpanId?: string; traceId: string }>();
  for (const span of telemetry.spans()) {
    if (span.name.startsWith('body ')) {
      bodies.set(span.name.slice(5), {
        parentSpanId: span.parentSpanContext?.spanId,
        traceId: span.spanContext().traceId,
      });
      continue;
    }
    if (!span.name.startsWith('execute_tool ')) continue;
    const callId = span.attributes[ATTR_GEN_AI_TOOL_CALL_ID] as string;
    const record = run.records.get(callId);
    if (!record) {
      violations.push(`a span without a known call id: ${callId}`);
      continue;
    }
    if (toolSpans.has(callId)) violations.push(`${callId}: more than one span`);
    toolSpans.set(callId, { spanId: span.spanContext().spanId, traceId: span.spanContext().traceId });
    const { plan } = record;
    const fail = (what: string) => violations.push(`${callId} (${plan.mode} ${plan.outcome}): ${what}`);
    if (span.name !== `execute_tool ${plan.tool}` || span.attributes[ATTR_GEN_AI_TOOL_NAME] !== plan.tool) {
      fail(`span of the wrong tool: ${span.name}`);
    }
    if (span.parentSpanContext?.spanId !== run.parents.get(callId)) fail('parent is not the span active at the call');
    const errorType = expectedErrorType(plan);
    if (errorType === undefined) {
      if (span.status.code !== SpanStatusCode.UNSET || span.attributes[ATTR_ERROR_TYPE] !== undefined) {
        fail('a success recorded as an error');
      }
      continue;
    }
    const decision = expectedDecision(plan, record.thrown?.value, options.errorPolicy, options.toolErrorPolicies);
    if (span.status.code !== SpanStatusCode.ERROR) fail('a failure without status ERROR');
    if (span.attributes[ATTR_ERROR_TYPE] !== errorType) fail(`error.type ${span.attributes[ATTR_ERROR_TYPE]}`);
    if (span.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME] !== `${decision === 'report' ? 'reported' : 'rethrown'}`) {
      fail(`outcome ${span.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]}, expected ${decision}`);
    }
  }
  for (const [callId] of run.records) {
    const own = toolSpans.get(callId);
    const body = bodies.get(callId);
    if (!own) violations.push(`${callId}: no span`);
    else if (!body || body.parentSpanId !== own.spanId || body.traceId !== own.traceId) {
      violations.push(`${callId}: the body's span is not a child of its own tool span`);
    }
  }

  // metrics: expected counts by attribute key, from the plans alone
  const expectedDurations = new Map<string, number>();
  const expectedErrors = new Map<string, number>();
  const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const record of run.records.values()) {
    const errorType = expectedErrorType(record.plan);
    bump(expectedDurations, `${record.plan.tool}|${errorType ?? ''}`);
    if (errorType !== undefined) {
      const decision = expectedDecision(
        record.plan,
        record.thrown?.value,
        options.errorPolicy,
        options.toolErrorPolicies,
      );
      bump(expectedErrors, `${record.plan.tool}|${errorType}|${decision === 'report' ? 'reported' : 'rethrown'}`);
    }
  }
  const durations = new Map<string, number>();
  for (const point of await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION)) {
    durations.set(key(point.attributes, [ATTR_GEN_AI_TOOL_NAME, ATTR_ERROR_TYPE]), point.value.count);
  }
  const errors = new Map<string, number>();
  for (const point of await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS)) {
    errors.set(
      key(point.attributes, [ATTR_GEN_AI_TOOL_NAME, ATTR_ERROR_TYPE, ATTR_TOOL_CALL_ERROR_OUTCOME]),
      point.value,
    );
  }
  if (!sameCounts(durations, expectedDurations)) {
    violations.push(`histogram counts ${show(durations)}, expected ${show(expectedDurations)}`);
  }
  if (!sameCounts(errors, expectedErrors)) {
    violations.push(`error counts ${show(errors)}, expected ${show(expectedErrors)}`);
  }
  return violations;
}

function key(attributes: Record<string, unknown>, names: readonly string[]): string {
  return names.map((name) => String(attributes[name] ?? '')).join('|');
}

function sameCounts(actual: Map<string, number>, expected: Map<string, number>): boolean {
  return actual.size === expected.size && [...expected].every(([name, count]) => actual.get(name) === count);
}

function show(map: Map<string, number>): string {
  return JSON.stringify(Object.fromEntries([...map].sort()));
}
