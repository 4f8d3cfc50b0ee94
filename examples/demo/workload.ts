// The workload: agents running real AI SDK agent loops (generateText + tools) at a given rate,
// each run inside an `invoke_agent <name>` span so that its model turns and tool calls nest under it.
// observeToolCalls observes every tool call, those the AI SDK rejects (the model's mistakes) included.
import { setTimeout as sleep } from 'node:timers/promises';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { generateText, stepCountIs } from 'ai';
import { observeToolCalls } from 'otel-tool-calls/ai-sdk';
import { ATTR_GEN_AI_AGENT_NAME, ATTR_GEN_AI_OPERATION_NAME } from 'otel-tool-calls/semconv';
import type { Agent } from './agents.js';
import { withWrongCall } from './model-mistakes.js';
import { scriptedModel } from './scripted-model.js';
import { demoTools } from './tools.js';

const tracer = trace.getTracer('otel-tool-calls-demo');

export interface WorkloadOptions {
  readonly agents: readonly Agent[];
  readonly runsPerSecond: number;
  readonly durationMs: number;
  /** Aborted: no new runs start (Ctrl-C); runs in flight finish. */
  readonly stop: AbortSignal;
}

export interface WorkloadResult {
  readonly runs: number;
  /** Runs whose generateText rejected (none expected: the AI SDK turns tool errors into tool-error parts). */
  readonly failedRuns: number;
}

/**
 * Each agent starts a run every `agents / runsPerSecond` seconds (staggered, so the load is even),
 * one run at a time: an agent whose run outlasts its interval starts the next one right after.
 */
export async function runWorkload({
  agents,
  runsPerSecond,
  durationMs,
  stop,
}: WorkloadOptions): Promise<WorkloadResult> {
  const end = performance.now() + durationMs;
  const intervalMs = (agents.length / runsPerSecond) * 1000;
  let runs = 0;
  let failedRuns = 0;
  const stopped = () => stop.aborted || performance.now() >= end;

  const loop = async (agent: Agent, index: number) => {
    let next = performance.now() + (index * intervalMs) / agents.length;
    for (;;) {
      const wait = next - performance.now();
      if (wait > 0) await sleep(wait, undefined, { signal: stop }).catch(() => undefined);
      if (stopped()) return;
      next = Math.max(next + intervalMs, performance.now());
      if (!(await runAgent(agent, runs++))) failedRuns++;
    }
  };
  await Promise.all(agents.map(loop));
  return { runs, failedRuns };
}

/** Run `index` (from 0): a real generateText loop over the demo's tools, observed. Resolves false if it failed. */
export function runAgent(agent: Agent, index: number): Promise<boolean> {
  const plan = withWrongCall(agent.plan(), index);
  return tracer.startActiveSpan(
    `invoke_agent ${agent.name}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: { [ATTR_GEN_AI_OPERATION_NAME]: 'invoke_agent', [ATTR_GEN_AI_AGENT_NAME]: agent.name },
    },
    async (span) => {
      try {
        await generateText(
          observeToolCalls(
            {
              model: scriptedModel(plan),
              tools: demoTools,
              // the plan's steps, then one turn to answer
              stopWhen: stepCountIs(plan.length + 1),
              prompt: agent.prompt,
            },
            agent.listener,
          ),
        );
        return true;
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: String((error as Error)?.message ?? error) });
        return false;
      } finally {
        span.end();
      }
    },
  );
}
