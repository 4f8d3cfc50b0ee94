// A fake OpenAI Chat Completions API (plain JavaScript: fixture apps under test/register load it too); types in the .d.mts.
import { startFakeApiServer } from './fake-api-server.mjs';

/**
 * A fake OpenAI Chat Completions API on 127.0.0.1: `POST …/chat/completions` answers with what
 * `reply` makes of the request (and its index), as JSON, or as the API's server-sent chunks when the
 * request asks for `stream`. `baseURL` is what the client is given (`/v1` included).
 */
export async function startFakeChatCompletions(reply) {
  const requests = [];
  const server = await startFakeApiServer(async (req, res, text) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    const request = { path, body: JSON.parse(text) };
    requests.push(request);
    const answer = reply(request, requests.length - 1);
    const id = `chatcmpl-${requests.length}`;
    const model = String(request.body.model ?? 'gpt-fake');
    const toolCalls = (answer.toolCalls ?? []).map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
    const finish = toolCalls.length > 0 ? 'tool_calls' : 'stop';
    if (request.body.stream === true) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const chunk = (delta, finish_reason) =>
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason }] })}\n\n`;
      res.write(chunk({ role: 'assistant', content: answer.content ?? null }, null));
      toolCalls.forEach((call, index) => {
        res.write(chunk({ tool_calls: [{ index, ...call }] }, null));
      });
      res.write(chunk({}, finish));
      res.end('data: [DONE]\n\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created: 0,
        model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: answer.content ?? null,
              refusal: null,
              ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
            },
            finish_reason: finish,
            logprobs: null,
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      }),
    );
  });
  return { baseURL: `${server.origin}/v1`, requests, close: server.close };
}

/** The tool messages the runner sent in request `index`: `{ tool_call_id, content }` each. */
export function toolMessagesIn(request) {
  return (request?.body.messages ?? [])
    .filter((message) => message.role === 'tool')
    .map((message) => ({ tool_call_id: message.tool_call_id, content: message.content }));
}
