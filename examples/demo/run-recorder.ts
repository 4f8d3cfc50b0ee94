// A span processor that keeps what the terminal summary needs, whatever happens to the exporters:
// per-tool durations and error outcomes of the calls the tools ran, and every span of one agent run
// worth showing.
import { SpanStatusCode } from '@opentelemetry/api';
import { hrTimeToMilliseconds } from '@opentelemetry/core';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  TOOL_CALL_ERROR_OUTCOME_VALUE_REPORTED,
  TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN,
  TOOL_CALL_ERROR_SOURCE_VALUE_MODEL,
} from 'otel-tool-calls/semconv';

export interface ToolCallSample {
  readonly durationsMs: number[];
  reported: number;
  rethrown: number;
}

const isRunRoot = (span: ReadableSpan) => span.attributes[ATTR_GEN_AI_OPERATION_NAME] === 'invoke_agent';
const outcomeOf = (span: ReadableSpan) => span.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME];
/** A call the tool ran: not one the model got wrong, which the framework refused before any tool ran. */
const isRunCall = (span: ReadableSpan) =>
  span.attributes[ATTR_GEN_AI_OPERATION_NAME] === 'execute_tool' &&
  span.attributes[ATTR_TOOL_CALL_ERROR_SOURCE] !== TOOL_CALL_ERROR_SOURCE_VALUE_MODEL;

export class RunRecorder implements SpanProcessor {
  /** The calls each tool ran, by tool name, in the order tools were first seen. */
  readonly tools = new Map<string, ToolCallSample>();
  /** The spans of the most telling run so far: the first with both a reported and a rethrown error. */
  sampleRun: readonly ReadableSpan[] | undefined;
  /** Agent runs whose root span ended. */
  finishedRuns = 0;
  private sampleScore = -1;
  /** Spans of runs still in flight, by trace id; dropped when the run's root span ends. */
  private readonly pending = new Map<string, ReadableSpan[]>();

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (isRunCall(span)) this.count(span);
    const { traceId } = span.spanContext();
    const spans = this.pending.get(traceId) ?? [];
    spans.push(span);
    if (!isRunRoot(span)) {
      this.pending.set(traceId, spans);
      return;
    }
    this.pending.delete(traceId);
    this.finishedRuns++;
    const outcomes = new Set(spans.map(outcomeOf));
    const score =
      Number(outcomes.has(TOOL_CALL_ERROR_OUTCOME_VALUE_REPORTED)) +
      Number(outcomes.has(TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN));
    if (score > this.sampleScore) {
      this.sampleRun = spans;
      this.sampleScore = score;
    }
  }

  private count(span: ReadableSpan) {
    const name = String(span.attributes[ATTR_GEN_AI_TOOL_NAME]);
    let sample = this.tools.get(name);
    if (!sample) {
      sample = { durationsMs: [], reported: 0, rethrown: 0 };
      this.tools.set(name, sample);
    }
    sample.durationsMs.push(hrTimeToMilliseconds(span.duration));
    if (span.status.code !== SpanStatusCode.ERROR) return;
    if (outcomeOf(span) === TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN) sample.rethrown++;
    else sample.reported++;
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
