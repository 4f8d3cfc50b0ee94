import {
  type Context,
  type Counter,
  createNoopMeter,
  type Histogram,
  type Meter,
  type MeterProvider,
  metrics,
  type ObservableCounter,
} from '@opentelemetry/api';
import { VERSION } from '../version.js';
import { MetricAttributes } from './metric-attributes.js';
import {
  ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME,
  GEN_AI_DURATION_BUCKETS,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_APPROVAL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
  METRIC_TOOL_CALL_REPEATS,
  METRIC_TOOL_CALL_RESULT_SIZE,
  TOOL_CALL_APPROVAL_DURATION_BUCKETS,
  TOOL_CALL_RESULT_SIZE_BUCKETS,
} from './semconv.js';

/** The instrumentation scope of the listener's spans and metrics. */
export const SCOPE_NAME = 'otel-tool-calls';

const NOOP_METER = createNoopMeter();
/** Tool names whose repeats are counted by name; the rest under `_other` (a bound on the counts kept). */
const MAX_REPEATING_TOOLS = 1024;
const OTHER_TOOLS = '_other';

interface Instruments {
  readonly meter: Meter;
  readonly duration: Histogram;
  readonly errors: Counter;
  readonly repeats: ObservableCounter;
  readonly resultSize: Histogram;
  readonly approvalDuration: Histogram;
}

/**
 * The listener's metrics: one `gen_ai.execute_tool.duration` sample per call, a `tool_call.errors`
 * increment per failure, a `tool_call.repeats` increment per repeated call, a `tool_call.result.size`
 * sample per success.
 */
export class ToolCallMetrics {
  private instruments: Instruments | undefined;
  private readonly attributes: MetricAttributes;
  /**
   * The repeats so far, by the tool's metric name: observed at each collection. A synchronous
   * counter's add costs about what the call's histogram sample does (the SDK hashes the attributes
   * each time); a count kept here costs a map update. Bounded: a name past `MAX_REPEATING_TOOLS`
   * is counted under `_other`.
   */
  private readonly repeatsByTool = new Map<string, number>();

  constructor(
    /** The option; absent: the global one, looked up at each call until it gives a real meter. */
    private readonly meterProvider: MeterProvider | undefined,
    agentName: string | undefined,
  ) {
    this.attributes = new MetricAttributes(agentName);
  }

  /** The meter, once an SDK gives a real one (the protocol adapters' operations use it too). */
  meter(): Meter | undefined {
    return this.get()?.meter;
  }

  /** No instrument made yet, and no global meter provider to make one with. */
  nowhere(): boolean {
    return this.instruments === undefined && metrics.getMeterProvider().getMeter(SCOPE_NAME, VERSION) === NOOP_METER;
  }

  /**
   * The call's sample, and its error increment if it failed; measured in the context the call
   * started in (its baggage, for a view's attributes processor): given, the SDK does not look up
   * the active one.
   */
  record(
    parent: Context,
    seconds: number,
    toolName: string,
    toolType: string,
    errorType: string | undefined,
    outcome: string | undefined,
    rejected: boolean,
  ): void {
    const instruments = this.get();
    if (instruments === undefined) return;
    const { attributes } = this;
    instruments.duration.record(seconds, attributes.duration(toolName, toolType, errorType, rejected), parent);
    if (errorType !== undefined) {
      instruments.errors.add(1, attributes.errors(toolName, toolType, errorType, outcome as string, rejected), parent);
    }
  }

  /** A call that repeats an earlier one of its trace (repeated-calls.ts). */
  repeat(toolName: string): void {
    if (this.get() === undefined) return;
    const counts = this.repeatsByTool;
    const count = counts.get(toolName);
    if (count !== undefined) counts.set(toolName, count + 1);
    else if (counts.size < MAX_REPEATING_TOOLS) counts.set(toolName, 1);
    else counts.set(OTHER_TOOLS, (counts.get(OTHER_TOOLS) ?? 0) + 1);
  }

  /** The size in bytes of a successful call's result (result-size.ts). */
  resultSize(parent: Context, toolName: string, bytes: number): void {
    this.get()?.resultSize.record(bytes, this.attributes.byTool(toolName), parent);
  }

  /** A wait for a decision inside this process: `tool_call.approval.duration`, by tool and outcome. */
  approval(toolName: string, outcome: string, seconds: number): void {
    const attributes = { ...this.attributes.byTool(toolName), [ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME]: outcome };
    this.get()?.approvalDuration.record(seconds, attributes);
  }

  // Looked up at a call, not in the constructor, and kept only once an SDK gives a real meter: the
  // global metrics API has no proxy, so instruments made before the SDK starts would stay no-ops.
  private get(): Instruments | undefined {
    if (this.instruments) return this.instruments;
    const meter = (this.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE_NAME, VERSION);
    if (meter === NOOP_METER) return undefined;
    const instruments: Instruments = {
      meter,
      duration: meter.createHistogram(METRIC_GEN_AI_EXECUTE_TOOL_DURATION, {
        unit: 's',
        description: 'Duration of tool call operations (GenAI semantic conventions, execute_tool)',
        advice: { explicitBucketBoundaries: [...GEN_AI_DURATION_BUCKETS] },
      }),
      errors: meter.createCounter(METRIC_TOOL_CALL_ERRORS, {
        unit: '{error}',
        description: 'Failed tool calls, by outcome (reported to the model or rethrown); otel-tool-calls own metric',
      }),
      repeats: meter.createObservableCounter(METRIC_TOOL_CALL_REPEATS, {
        unit: '{call}',
        description:
          'Tool calls that repeat an earlier call of their trace (same tool, same arguments); otel-tool-calls own metric',
      }),
      resultSize: meter.createHistogram(METRIC_TOOL_CALL_RESULT_SIZE, {
        unit: 'By',
        description:
          "Size of a successful tool call's result as the model reads it (UTF-8 bytes); otel-tool-calls own metric",
        advice: { explicitBucketBoundaries: [...TOOL_CALL_RESULT_SIZE_BUCKETS] },
      }),
      approvalDuration: meter.createHistogram(METRIC_TOOL_CALL_APPROVAL_DURATION, {
        unit: 's',
        description: 'Time a tool call waited for an approval decision inside the process; otel-tool-calls own metric',
        advice: { explicitBucketBoundaries: [...TOOL_CALL_APPROVAL_DURATION_BUCKETS] },
      }),
    };
    instruments.repeats.addCallback((result) => {
      for (const [toolName, count] of this.repeatsByTool) result.observe(count, this.attributes.byTool(toolName));
    });
    this.instruments = instruments;
    return instruments;
  }
}
