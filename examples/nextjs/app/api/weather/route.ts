import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';

// Node.js, not the edge runtime: the tool calls are observed by an instrumentation of the Node SDK
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const getWeather = tool({
  description: 'Current weather of a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, celsius: 18 }),
});

/** GET /api/weather?city=Lisbon&call=call_1: the agent calls getWeather (with that call id), then answers. */
export async function GET(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const city = url.searchParams.get('city') ?? 'Lisbon';
  const toolCallId = url.searchParams.get('call') ?? 'call_1';
  const result = await generateText({
    model: weatherModel(city, toolCallId),
    tools: { getWeather },
    stopWhen: stepCountIs(2),
    prompt: `What is the weather in ${city}?`,
    // the AI SDK's own spans (ai.generateText, ai.toolCall): the tool call's span is a child of ai.toolCall
    experimental_telemetry: { isEnabled: true },
  });
  return Response.json({ text: result.text, toolCalls: result.steps.flatMap((step) => step.toolCalls.length) });
}

const usage = {
  inputTokens: { total: 9, noCache: 9, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 9, text: 9, reasoning: 0 },
};

/** A mock model (no network): it calls getWeather first, then answers with the tool's result. */
function weatherModel(city: string, toolCallId: string) {
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const results = prompt.flatMap((message) => (message.role === 'tool' ? message.content : []));
      if (results.length === 0) {
        return {
          content: [{ type: 'tool-call', toolCallId, toolName: 'getWeather', input: JSON.stringify({ city }) }],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        };
      }
      const text = `It is ${JSON.stringify(results.map((part) => part.type === 'tool-result' && part.output))}`;
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}
