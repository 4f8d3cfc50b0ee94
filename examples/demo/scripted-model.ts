// The LLM stand-in: the AI SDK's own MockLanguageModelV3, scripted to call the plan's tools step
// by step and then answer, taking a model's time to think and tracing each turn as a GenAI `chat` span.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { SpanKind, trace } from '@opentelemetry/api';
import { MockLanguageModelV3 } from 'ai/test';
import { ATTR_GEN_AI_OPERATION_NAME } from 'otel-tool-calls/semconv';
import type { Plan } from './agents.js';

const MODEL_ID = 'scripted-demo-model';
const tracer = trace.getTracer('otel-tool-calls-demo');

export function scriptedModel(plan: Plan): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: 'demo',
    modelId: MODEL_ID,
    doGenerate: ({ prompt, abortSignal }) =>
      tracer.startActiveSpan(
        `chat ${MODEL_ID}`,
        {
          kind: SpanKind.CLIENT,
          attributes: { [ATTR_GEN_AI_OPERATION_NAME]: 'chat', 'gen_ai.request.model': MODEL_ID },
        },
        async (span) => {
          try {
            await sleep(30 + Math.random() * 170, undefined, { signal: abortSignal });
            // one assistant message per finished step: the next one is the step to play
            const step = prompt.filter((message) => message.role === 'assistant').length;
            const calls = plan[step];
            if (calls) {
              return {
                content: calls.map(({ toolName, input }) => ({
                  type: 'tool-call' as const,
                  toolCallId: `call_${randomUUID().slice(0, 8)}`,
                  toolName,
                  input: JSON.stringify(input),
                })),
                finishReason: { unified: 'tool-calls' as const, raw: undefined },
                usage: usage(),
                warnings: [],
              };
            }
            const results = prompt.flatMap((message) => (message.role === 'tool' ? message.content : []));
            const failed = results.filter(
              (part) =>
                part.type === 'tool-result' && (part.output.type === 'error-text' || isReportedError(part.output)),
            );
            return {
              content: [
                { type: 'text' as const, text: `Done after ${results.length} tool results, ${failed.length} failed.` },
              ],
              finishReason: { unified: 'stop' as const, raw: undefined },
              usage: usage(),
              warnings: [],
            };
          } finally {
            span.end();
          }
        },
      ),
  });
}

/** A failure reported by the listener reaches the model as a text tool output. */
function isReportedError(output: { type: string; value?: unknown }): boolean {
  return output.type === 'text' && typeof output.value === 'string' && output.value.includes(' failed: ');
}

function usage() {
  const input = 200 + Math.floor(Math.random() * 800);
  const output = 20 + Math.floor(Math.random() * 200);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}
