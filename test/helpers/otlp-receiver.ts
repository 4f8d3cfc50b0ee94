import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  readonly path: string;
  readonly contentType: string | undefined;
  readonly body: Buffer;
}

/**
 * An OTLP/HTTP receiver on 127.0.0.1 (a random port) that records every request and answers
 * with `status` (200 by default), as a collector or Jaeger's OTLP port would.
 */
export async function startOtlpReceiver(status = 200) {
  const requests: ReceivedRequest[] = [];
  const waiters: Array<() => void> = [];
  const server = createServer(async (request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    requests.push({
      path: request.url ?? '',
      contentType: request.headers['content-type'],
      body: Buffer.concat(chunks),
    });
    for (const wake of waiters.splice(0)) wake();
    response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Resolves when a request to `path` has arrived; rejects after `timeoutMs`. */
    async waitFor(path: string, timeoutMs = 10_000): Promise<ReceivedRequest> {
      await this.waitUntil(
        (received) => received.some((request) => request.path === path),
        timeoutMs,
        `request to ${path}`,
      );
      return requests.find((request) => request.path === path) as ReceivedRequest;
    },
    /** Resolves when `done` holds for the requests received so far; rejects after `timeoutMs`. */
    async waitUntil(
      done: (received: readonly ReceivedRequest[]) => boolean,
      timeoutMs = 10_000,
      what = 'the requests awaited',
    ): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!done(requests)) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no ${what} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // exporters keep connections alive: don't wait for them
      }),
  };
}

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
}

/** The attributes of an OTLP/JSON span as a plain record. */
export function otlpAttributes(attributes: OtlpAttribute[] = []): Record<string, unknown> {
  return Object.fromEntries(
    attributes.map(({ key, value }) => [
      key,
      value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue,
    ]),
  );
}
