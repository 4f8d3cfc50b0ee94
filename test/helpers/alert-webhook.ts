/**
 * A webhook receiver on 127.0.0.1 (a random port) that records the notifications Alertmanager sends
 * (its webhook payload, version 4), by request path: a test gives each receiver its own path.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookNotification {
  /** The request path: which receiver's webhook was called. */
  readonly path: string;
  readonly receiver: string;
  readonly status: 'firing' | 'resolved';
  readonly groupLabels: Readonly<Record<string, string>>;
  readonly alerts: ReadonlyArray<{
    readonly status: 'firing' | 'resolved';
    readonly labels: Readonly<Record<string, string>>;
    readonly annotations: Readonly<Record<string, string>>;
  }>;
}

export async function startAlertWebhook() {
  const notifications: WebhookNotification[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Omit<WebhookNotification, 'path'>;
      notifications.push({ ...body, path: request.url ?? '' });
      response.writeHead(200).end();
    } catch {
      response.writeHead(400).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    notifications,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
