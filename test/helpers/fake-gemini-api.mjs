// A fake Gemini API (plain JavaScript: fixture apps under test/register load it too); types in the .d.mts.
import { startFakeApiServer } from './fake-api-server.mjs';

/**
 * A fake Gemini API on 127.0.0.1: `POST …/models/{model}:generateContent` answers with what `reply`
 * makes of the request (and its index) as JSON; `:streamGenerateContent` as server-sent events, one
 * chunk per part. `baseUrl` is what `httpOptions.baseUrl` is given.
 */
export async function startFakeGeminiApi(reply) {
  const requests = [];
  const server = await startFakeApiServer(async (req, res, text) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const streaming = path.endsWith(':streamGenerateContent');
    if (req.method !== 'POST' || !(streaming || path.endsWith(':generateContent'))) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":404,"message":"not found"}}');
      return;
    }
    const request = { path, body: JSON.parse(text) };
    requests.push(request);
    const { parts } = reply(request, requests.length - 1);
    const response = (chunk, last) => ({
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
  return { baseUrl: server.origin, requests, close: server.close };
}

/** The `functionResponse` parts the SDK sent in `request`. */
export function functionResponsesIn(request) {
  return (request?.body.contents ?? [])
    .flatMap((content) => content.parts ?? [])
    .filter((part) => 'functionResponse' in part)
    .map((part) => part.functionResponse);
}
