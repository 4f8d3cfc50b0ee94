import { createServer } from 'node:http';

/** One scripted answer of the model: tool calls, or a text. */
export interface ChatReply {
  readonly toolCalls?: ReadonlyArray<{ readonly id: string; readonly name: string; readonly arguments: string }>;
  readonly content?: string;
}

export interface ChatRequest {
  readonly path: string;
  readonly body: { messages: Array<Record<string, unknown>>; stream?: boolean; [key: string]: unknown };
}

/**
 * A fake OpenAI Chat Completions API on 127.0.0.1: `POST …/chat/completions` answers with what
 * `reply` makes of the request (and its index), as JSON, or as the API's server-sent chunks when the
 * request asks for `stream`. `baseURL` is what the client is given (`/v1` included).
 */
export async function startFakeChatCompletions(reply: (request: ChatRequest, index: number) => ChatReply) {
  const requests: ChatRequest[] = [];
  const server = createServer(async (req, res) => {
    const text = await bodyOf(req);
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    const request: ChatRequest = { path, body: JSON.parse(text) };
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
      const chunk = (delta: object, finish_reason: string | null) =>
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function bodyOf(req: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The tool messages the runner sent in request `index`: `{ tool_call_id, content }` each. */
export function toolMessagesIn(request: ChatRequest | undefined): Array<{ tool_call_id: unknown; content: unknown }> {
  return (request?.body.messages ?? [])
    .filter((message) => message.role === 'tool')
    .map((message) => ({ tool_call_id: message.tool_call_id, content: message.content }));
}
