import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = new URL('../..', import.meta.url).pathname;
const chromiumPath = '/usr/bin/chromium';
const hasChromium = existsSync(chromiumPath);
const required = process.env.REQUIRE_SERVICES === '1';
const screenshots = `${repoRoot}test-results/live-progress`;
const FAILED_MESSAGE = "Tool 'refund_shipping_fee' failed: payment gateway timed out after 1s";
const TOOLS = ['lookup_customer', 'get_order', 'track_shipment', 'refund_shipping_fee', 'create_support_ticket'];

let server: ChildProcess;
let url: string;

/** Starts the example as users do (one process, tsx) on a free port; resolves to the URL it prints. */
async function startServer(): Promise<string> {
  server = spawn(process.execPath, ['--import', 'tsx', 'examples/live-progress/server.ts'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const printed = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /Live progress on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    server.stdout?.on('data', onData);
    server.stderr?.on('data', onData);
    server.on('exit', (code) => reject(new Error(`server exited with ${code} before listening:\n${output}`)));
  });
  const timeout = AbortSignal.timeout(20_000);
  const timedOut = once(timeout, 'abort').then(() => {
    throw new Error(`server did not print its URL within 20s:\n${output}`);
  });
  return Promise.race([printed, timedOut]);
}

/** Reads one agent run from the SSE endpoint, without a browser: [event type, data] in arrival order. */
async function readRun(): Promise<[string, Record<string, unknown>][]> {
  const response = await fetch(`${url}/run`, { signal: AbortSignal.timeout(30_000) });
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const body = await response.text(); // the server ends the stream when the agent is done
  return body
    .trim()
    .split('\n\n')
    .map((message) => {
      const type = /^event: (.+)$/m.exec(message)?.[1] ?? '';
      const data = JSON.parse(/^data: (.+)$/m.exec(message)?.[1] ?? 'null') as Record<string, unknown>;
      return [type, data];
    });
}

beforeAll(async () => {
  url = await startServer();
});

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
});

describe('examples/live-progress server', () => {
  it('streams a start and exactly one finish or error per tool call, the error with the reported message', async () => {
    const events = await readRun();

    const starts = events.filter(([type]) => type === 'tool-start').map(([, data]) => data);
    expect(starts.map((start) => start.name)).toEqual(TOOLS);
    for (const start of starts) {
      const ends = events.filter(([type, data]) => type !== 'tool-start' && data.id === start.id);
      expect(ends).toHaveLength(1);
      const [[type, data]] = ends as [[string, Record<string, unknown>]];
      const startIndex = events.findIndex(([, other]) => other === start);
      expect(events.indexOf(ends[0]!)).toBeGreaterThan(startIndex);
      expect(data.durationMs).toEqual(expect.any(Number));
      if (start.name === 'refund_shipping_fee') {
        expect(type).toBe('tool-error');
        expect(data.message).toBe(FAILED_MESSAGE);
      } else {
        expect(type).toBe('tool-finish');
      }
    }
    // The failure was reported, not thrown: the agent went on and answered.
    expect(events.at(-1)).toEqual(['agent-done', { answer: expect.stringContaining('ticket SUP-1042') }]);
  });

  it('serves the page at / and 404 elsewhere', async () => {
    const page = await fetch(url);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('Run agent');
    expect((await fetch(`${url}/nope`)).status).toBe(404);
  });
});

if (!hasChromium && !required) {
  console.warn(
    `Skipping the live-progress browser test: ${chromiumPath} not found (REQUIRE_SERVICES=1 fails instead).`,
  );
}

describe.skipIf(!hasChromium && !required)('examples/live-progress page in headless Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    if (!hasChromium) throw new Error(`REQUIRE_SERVICES=1 but ${chromiumPath} is absent`);
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    });
    mkdirSync(screenshots, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows one row per call: a spinner while running, a duration when done, the failure and its message', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 640 } });
    page.setDefaultTimeout(10_000); // a missing element fails in 10 s, not at the test timeout
    await page.goto(url);
    // Record every row that appears in the running state with a spinner. A MutationObserver sees
    // each row before the next SSE event is handled, so this does not depend on timing.
    await page.evaluate(() => {
      const seen: string[] = [];
      Object.assign(window, { runningWithSpinner: seen });
      new MutationObserver((records) => {
        for (const node of records.flatMap((record) => Array.from(record.addedNodes))) {
          if (node instanceof HTMLElement && node.matches('li.call.running') && node.querySelector('.spinner')) {
            seen.push(node.querySelector('.name')?.textContent ?? '');
          }
        }
      }).observe(document.getElementById('calls')!, { childList: true });
    });

    await page.click('#run');
    await page.locator('li.call.running .spinner').first().waitFor({ timeout: 30_000 });
    await page.screenshot({ path: `${screenshots}/running.png` });
    await page.locator('#answer:not([hidden])').waitFor({ timeout: 30_000 });
    await page.screenshot({ path: `${screenshots}/finished.png`, fullPage: true });

    expect(
      await page.evaluate(() => (window as unknown as { runningWithSpinner: string[] }).runningWithSpinner),
    ).toEqual(TOOLS);
    const rows = page.locator('li.call');
    expect(await rows.locator('.name').allTextContents()).toEqual(TOOLS);
    expect(await page.locator('li.call .spinner').count()).toBe(0);

    const done = page.locator('li.call.done');
    expect(await done.locator('.name').allTextContents()).toEqual(TOOLS.filter((t) => t !== 'refund_shipping_fee'));
    for (const duration of await done.locator('.duration').allTextContents()) {
      expect(duration).toMatch(/^(\d+ ms|\d+\.\d\d s)$/);
    }

    const failed = page.locator('li.call.failed');
    expect(await failed.locator('.name').allTextContents()).toEqual(['refund_shipping_fee']);
    expect(await failed.locator('.state').textContent()).toBe('✕');
    expect(await failed.locator('.message').textContent()).toBe(FAILED_MESSAGE);
    expect(await failed.locator('.duration').textContent()).toMatch(/^(\d+ ms|\d+\.\d\d s)$/);

    expect(await page.locator('#answer').textContent()).toContain('ticket SUP-1042');
    expect(await page.locator('#status').textContent()).toBe('Agent finished · 5 tool calls, 1 failed');
    await page.close();
  }, 90_000);
});
