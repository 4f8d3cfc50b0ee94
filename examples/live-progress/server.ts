// Streams an agent's tool calls to a web page as they happen (Server-Sent Events, node:http only).
// Usage: npx tsx examples/live-progress/server.ts   (PORT=3000 by default; PORT=0 picks a free port)
import { readFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runSupportAgent } from './agent.js';
import { SseProgressListener } from './sse-progress-listener.js';

const page = new URL('./index.html', import.meta.url);

function sendEvent(res: ServerResponse, type: string, data: unknown): void {
  // The page may have gone away mid-run; a listener must not throw, so writes to a closed stream are dropped.
  if (res.writableEnded || res.destroyed) return;
  res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** One agent run per EventSource connection: each page sees exactly its own run. */
async function streamRun(res: ServerResponse, signal: AbortSignal): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const listener = new SseProgressListener((event) => sendEvent(res, event.type, event));
  try {
    sendEvent(res, 'agent-done', { answer: await runSupportAgent(listener, signal) });
  } catch (error) {
    if (!signal.aborted) sendEvent(res, 'agent-error', { message: String(error) });
  } finally {
    res.end();
  }
}

const server = createServer(async (req, res) => {
  if (req.method === 'GET' && req.url === '/') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(await readFile(page));
  } else if (req.method === 'GET' && req.url === '/run') {
    const abort = new AbortController();
    res.on('close', () => abort.abort()); // closing the page stops the agent
    await streamRun(res, abort.signal);
  } else {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  }
});

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`Live progress on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
