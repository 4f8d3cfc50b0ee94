/**
 * The other end of the metrics paths (bench/metrics-paths.ts), a process of its own so that its CPU is
 * not the app's: an OTLP/HTTP receiver on 127.0.0.1 that takes what the app pushes (as a collector
 * does: an empty success answer), and the HTTP client that scrapes the app's `/metrics` when asked (as
 * Prometheus does: the same headers, a connection kept alive). Started with `fork()`; the app asks over
 * the IPC channel and gets one answer per question:
 *
 * - `{ id, kind: 'scrape', url }`: one GET of `url`, the body read whole; answers its size and whether
 *   it has the tool calls' duration histogram;
 * - `{ id, kind: 'received' }`: the requests received since the last such question, their bytes and
 *   how many had the histogram, then forgets them.
 *
 * It first sends `{ kind: 'ready', url }`, the receiver's address, and exits when the app does.
 */
import { Agent, createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The histogram's name as OTLP carries it (protobuf keeps strings as UTF-8) and as Prometheus spells it. */
const OTLP_NAME = Buffer.from('gen_ai.execute_tool.duration');
const PROMETHEUS_NAME = Buffer.from('gen_ai_execute_tool_duration_bucket');

/** What Prometheus 3 sends with a scrape. */
const SCRAPE_HEADERS = {
  accept:
    'application/openmetrics-text;version=1.0.0;escaping=underscores;q=0.5,application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=1.0.0;escaping=underscores;q=0.3,text/plain;version=0.0.4;q=0.2,*/*;q=0.1',
  'accept-encoding': 'gzip',
  'user-agent': 'Prometheus/3.16.0',
  'x-prometheus-scrape-timeout-seconds': '10',
};

export type PeerRequest = { kind: 'scrape'; url: string } | { kind: 'received' };
export type PeerQuestion = PeerRequest & { id: number };
export interface PeerAnswer {
  readonly id: number;
  /** Requests (1 for a scrape), their body bytes, and how many named the duration histogram. */
  readonly requests: number;
  readonly bytes: number;
  readonly named: number;
  readonly error?: string;
}

const send = (message: object) => process.send?.(message);

let received = { requests: 0, bytes: 0, named: 0 };
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks);
    received.requests++;
    received.bytes += body.length;
    if (request.url === '/v1/metrics' && body.includes(OTLP_NAME)) received.named++;
    const json = request.headers['content-type']?.includes('json');
    response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
    response.end(json ? '{}' : '');
  });
});

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function scrapeOnce(url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    get(url, { agent, headers: SCRAPE_HEADERS }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        response.statusCode === 200
          ? resolve(Buffer.concat(chunks))
          : reject(new Error(`${url} answered ${response.statusCode}`)),
      );
      response.on('error', reject);
    }).on('error', reject);
  });
}

/** A scrape; the app's endpoint may still be starting to listen (the exporter listens asynchronously). */
async function scrape(url: string): Promise<Buffer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await scrapeOnce(url);
    } catch (error) {
      if ((error as { code?: string }).code !== 'ECONNREFUSED' || attempt >= 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

process.on('message', async (question: PeerQuestion) => {
  if (question.kind === 'received') {
    send({ id: question.id, ...received } satisfies PeerAnswer);
    received = { requests: 0, bytes: 0, named: 0 };
    return;
  }
  try {
    const body = await scrape(question.url);
    send({ id: question.id, requests: 1, bytes: body.length, named: body.includes(PROMETHEUS_NAME) ? 1 : 0 });
  } catch (error) {
    send({ id: question.id, requests: 0, bytes: 0, named: 0, error: String(error) } satisfies PeerAnswer);
  }
});
process.on('disconnect', () => process.exit(0));

receiver.listen(0, '127.0.0.1', () => {
  send({ kind: 'ready', url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}` });
});
