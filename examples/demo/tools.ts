// The simulated tools: realistic, randomized latencies and the failures real dependencies have.
import { setTimeout as sleep } from 'node:timers/promises';
import { tool } from 'ai';
import { z } from 'zod';

/** A failure with a `code`, as Node's network errors have: it becomes the span's `error.type`. */
export class UpstreamError extends Error {
  override name = 'UpstreamError' as const;
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

const between = (min: number, max: number) => min + Math.random() * (max - min);

/** Waits a random time in [minMs, maxMs]; stops early when the agent loop aborts the call. */
const work = (minMs: number, maxMs: number, signal: AbortSignal | undefined) =>
  sleep(between(minMs, maxMs), undefined, { signal });

/** Failure rates, in one place so that the README and the test can name them. */
export const FETCH_URL_FAILURE_RATE = 0.2;
export const SEND_EMAIL_FAILURE_RATE = 0.05;

/** Where the support agent's emails go: each one waits for a human's approval. */
export const CUSTOMER_DOMAIN = '@customers.example.com';

export const demoTools = {
  web_search: tool({
    description: 'Searches the web; returns the top results',
    inputSchema: z.object({ query: z.string() }),
    execute: async ({ query }, { abortSignal }) => {
      await work(100, 400, abortSignal);
      return [1, 2, 3].map((rank) => ({ rank, title: `${query} (${rank})`, url: `https://example.com/${rank}` }));
    },
  }),
  // Flaky: timeouts are slow (the client waits), resets are fast.
  fetch_url: tool({
    description: 'Downloads a web page',
    inputSchema: z.object({ url: z.string() }),
    execute: async ({ url }, { abortSignal }) => {
      if (Math.random() < FETCH_URL_FAILURE_RATE) {
        if (Math.random() < 0.75) {
          await work(800, 1200, abortSignal);
          throw new UpstreamError(`connect ETIMEDOUT ${new URL(url).host}:443`, 'ETIMEDOUT');
        }
        await work(20, 100, abortSignal);
        throw new UpstreamError(`read ECONNRESET ${new URL(url).host}:443`, 'ECONNRESET');
      }
      await work(50, 600, abortSignal);
      return { url, status: 200, text: `<html>… ${Math.round(between(2, 90))} kB …</html>` };
    },
  }),
  sql_query: tool({
    description: 'Runs a read-only SQL query on the orders database',
    inputSchema: z.object({ sql: z.string() }),
    execute: async ({ sql }, { abortSignal }) => {
      await work(20, 80, abortSignal);
      return { sql, rowCount: Math.floor(between(0, 40)) };
    },
  }),
  send_email: tool({
    description: 'Sends an email to a customer',
    inputSchema: z.object({ to: z.string(), subject: z.string() }),
    // a human approves what goes out to a customer (the workload's reviewer); internal mail just goes
    needsApproval: async ({ to }) => to.endsWith(CUSTOMER_DOMAIN),
    execute: async ({ to }, { abortSignal }) => {
      await work(500, 2000, abortSignal);
      if (Math.random() < SEND_EMAIL_FAILURE_RATE) {
        throw new UpstreamError('SMTP 421: service not available, closing channel', 'SMTP_421');
      }
      return { to, messageId: `<${Date.now()}@mail.example.com>` };
    },
  }),
  // The dependency nobody dares to touch: down for maintenance, every time.
  legacy_crm: tool({
    description: 'Reads a customer record from the legacy CRM',
    inputSchema: z.object({ customerId: z.string() }),
    execute: async (_input, { abortSignal }): Promise<{ customerId: string }> => {
      await work(30, 120, abortSignal);
      throw new UpstreamError('legacy CRM answered HTTP 503 (maintenance window)', 'HTTP_503');
    },
  }),
};

export type DemoToolName = keyof typeof demoTools;
export const DEMO_TOOL_NAMES = Object.keys(demoTools) as DemoToolName[];
