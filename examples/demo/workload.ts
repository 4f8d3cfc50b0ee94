// The workload: agents running real AI SDK agent loops (generateText + tools) at a given rate,
// each run inside an `invoke_agent <name>` span so that its model turns and tool calls nest under it.
// observeToolCalls observes every tool call, those the AI SDK rejects (the model's mistakes) included,
// and the approvals of the emails to customers (reviewer.ts), asked in one request, answered in the next.
import { setTimeout as sleep } from 'node:timers/promises';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { observeToolCalls } from 'otel-tool-calls/ai-sdk';
import { ATTR_GEN_AI_AGENT_NAME, ATTR_GEN_AI_OPERATION_NAME } from 'otel-tool-calls/semconv';
import type { Agent } from './agents.js';
import { withWrongCall } from './model-mistakes.js';
import { review } from './reviewer.js';
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
        const model = scriptedModel(plan);
        const messages: ModelMessage[] = [{ role: 'user', content: agent.prompt }];
        // a run that stops for approvals goes on with the reviewer's answers, once per question asked
        for (let request = 0; request <= plan.length; request++) {
          const result = await generateText(
            observeToolCalls(
              // the plan's steps, then one turn to answer
              { model, tools: demoTools, stopWhen: stepCountIs(plan.length + 1), messages },
              agent.listener,
            ),
          );
          const approvals = result.content.filter((part) => part.type === 'tool-approval-request');
          if (approvals.length === 0) return true;
          messages.push(...result.response.messages, await review(approvals));
        }
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
