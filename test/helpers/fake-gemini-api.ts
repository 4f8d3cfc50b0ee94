import { createServer } from 'node:http';

/** One scripted answer of the model: its parts (`{ text }`, `{ functionCall: { id?, name, args } }`). */
export interface GeminiReply {
  readonly parts: ReadonlyArray<Record<string, unknown>>;
}

export interface GeminiRequest {
  readonly path: string;
  readonly body: { contents: Array<{ role?: string; parts?: Array<Record<string, unknown>> }>; [key: string]: unknown };
}

/**
 * A fake Gemini API on 127.0.0.1: `POST …/models/{model}:generateContent` answers with what `reply`
 * makes of the request (and its index) as JSON; `:streamGenerateContent` as server-sent events, one
 * chunk per part. `baseUrl` is what `httpOptions.baseUrl` is given.
 */
export async function startFakeGeminiApi(reply: (request: GeminiRequest, index: number) => GeminiReply) {
  const requests: GeminiRequest[] = [];
  const server = createServer(async (req, res) => {
    const text = await bodyOf(req);
    const path = (req.url ?? '').split('?')[0] ?? '';
    const streaming = path.endsWith(':streamGenerateContent');
    if (req.method !== 'POST' || !(streaming || path.endsWith(':generateContent'))) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":404,"message":"not found"}}');
      return;
    }
    const request: GeminiRequest = { path, body: JSON.parse(text) };
    requests.push(request);
    const { parts } = reply(request, requests.length - 1);
    const response = (chunk: ReadonlyArray<Record<string, unknown>>, last: boolean) => ({
      candidates: [{ content: { role: 'model', parts: chunk }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: 'gemini-fake',
    });
    if (streaming) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      parts.forEach((part, index) => {
        res.write(`data: ${JSON.stringify(response([part], index === parts.length - 1))}\r\n\r\n`);
      });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(response(parts, true)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
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

/** The `functionResponse` parts the SDK sent in `request`. */
export function functionResponsesIn(request: GeminiRequest | undefined): unknown[] {
  return (request?.body.contents ?? [])
    .flatMap((content) => content.parts ?? [])
    .filter((part) => 'functionResponse' in part)
    .map((part) => part.functionResponse);
}
