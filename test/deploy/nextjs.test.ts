/**
 * examples/nextjs as a user deploys it: the package packed as npm would publish it and installed into
 * the example (its own package.json and lock, `npm ci --prefix examples/nextjs`), `next build` (Turbopack),
 * then `next start` on 127.0.0.1 with each set-up of docs/deploy/nextjs.md, the route called once, and the
 * spans and the histogram read from an OTLP/HTTP receiver.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
} from 'otel-tool-calls/semconv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { waitFor } from '../helpers/prometheus.js';
import { packPackage } from '../helpers/readme-install.js';
import { answers, type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { type ExportedSpan, metricsOf, root, spansOf } from '../register/run-app.js';

const run = promisify(execFile);
const app = join(root, 'examples/nextjs');
const nextBin = join(app, 'node_modules/next/dist/bin/next');

/** Whether the example's dependencies are installed; CI (REQUIRE_SERVICES=1) fails without them, elsewhere this skips. */
function exampleInstalled(): boolean {
  const present = existsSync(nextBin);
  if (!present && (process.env.REQUIRE_SERVICES === '1' || process.env.CI === 'true')) {
    throw new Error('examples/nextjs is not installed: run `npm ci --prefix examples/nextjs`');
  }
  return present;
}
const installed = exampleInstalled();

/** The two set-ups of docs/deploy/nextjs.md, as environment variables of `next start`. */
const SETUPS = [
  {
    name: 'instrumentation.ts: @vercel/otel registerOTel with ToolCallsInstrumentation',
    callId: 'call_vercel',
    env: {},
  },
  {
    name: 'NODE_OPTIONS=--import otel-tool-calls/register',
    callId: 'call_register',
    env: { OTEL_TOOL_CALLS_SETUP: 'register', NODE_OPTIONS: '--import otel-tool-calls/register' },
  },
] as const;

let build: { output: string; failed?: string } = { output: '' };

describe('docs/deploy/nextjs.md', () => {
  it("shows the example's files as they are: each ```typescript block headed `// <file>` is that file", () => {
    const page = readFileSync(join(root, 'docs/deploy/nextjs.md'), 'utf8');
    const blocks = [...page.matchAll(/^```typescript\n\/\/ (\S+)\n([\s\S]*?)^```$/gm)];
    expect(blocks.map(([, file]) => file)).toEqual(['next.config.ts', 'instrumentation.ts', 'telemetry.ts']);
    for (const [, file, code] of blocks) expect(code, file).toBe(readFileSync(join(app, file as string), 'utf8'));
  });
});

describe.skipIf(!installed)('examples/nextjs (Next.js 16, next build and next start)', () => {
  beforeAll(async () => {
    if (!existsSync(join(root, 'dist/instrumentation.js'))) throw new Error('dist/ is missing: run `npm run build`');
    // the package as npm publishes it, installed as a real folder (not a link into this repo, whose
    // node_modules holds every optional peer and would hide an import of one the app does not have)
    const packDir = mkdtempSync(join(tmpdir(), 'otel-tool-calls-nextjs-'));
    try {
      const tarball = packPackage(packDir);
      await run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefer-offline', tarball], {
        cwd: app,
        timeout: 180_000,
      });
    } finally {
      rmSync(packDir, { recursive: true, force: true });
    }
    try {
      const { stdout, stderr } = await run(process.execPath, [nextBin, 'build'], {
        cwd: app,
        env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
        timeout: 480_000,
        maxBuffer: 16 * 1024 * 1024,
      });
      build = { output: stdout + stderr };
    } catch (error) {
      const { stdout = '', stderr = '', message } = error as { stdout?: string; stderr?: string; message: string };
      build = { output: stdout + stderr, failed: message };
    }
  }, 720_000);

  it('next build resolves every import: no optional peer (@langchain/core, @openai/agents, ...) is reached', () => {
    expect(build.output).not.toMatch(/Module not found|Can't resolve/);
    expect(build.failed, build.output.slice(-4000)).toBeUndefined();
    expect(build.output).toContain('/api/weather');
  });

  for (const setup of SETUPS) {
    describe(setup.name, () => {
      let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
      let server: ServerProcess | undefined;
      let url: string;

      beforeAll(async () => {
        if (build.failed !== undefined) throw new Error('next build failed: see the test above');
        receiver = await startOtlpReceiver();
        const port = await freePort();
        url = `http://127.0.0.1:${port}`;
        const env: NodeJS.ProcessEnv = { ...process.env };
        for (const key of Object.keys(env)) if (key.startsWith('OTEL_')) delete env[key];
        server = await startServerProcess(
          'next start',
          process.execPath,
          [nextBin, 'start', '-H', '127.0.0.1', '-p', `${port}`],
          {
            env: {
              ...env,
              NEXT_TELEMETRY_DISABLED: '1',
              OTEL_SERVICE_NAME: 'nextjs-weather-agent',
              OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
              // besides what a user sets: the receiver reads OTLP/JSON, and the server does not exit,
              // so its spans and metrics must be exported while the test waits for them
              OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
              OTEL_METRIC_EXPORT_INTERVAL: '1000',
              OTEL_BSP_SCHEDULE_DELAY: '500',
              ...setup.env,
            },
            // the app's folder: `--import otel-tool-calls/register` resolves from there, to the installed copy
            cwd: app,
            ready: () => answers(`${url}/`),
            readyTimeoutMs: 60_000,
          },
        );
      }, 90_000);

      afterAll(async () => {
        await server?.stop();
        await receiver?.close();
      });

      it('the route runs generateText and its tool call is an execute_tool span under the AI SDK span, with a duration sample', async () => {
        const { callId } = setup;
        const response = await fetch(`${url}/api/weather?city=Porto&call=${callId}`, {
          signal: AbortSignal.timeout(30_000),
        });
        const body = await response.text();
        expect(response.status, `${body}\n--- next start output ---\n${server?.log()}`).toBe(200);
        expect(JSON.parse(body)).toEqual({
          text: 'It is [{"type":"json","value":{"city":"Porto","celsius":18}}]',
          toolCalls: [1, 0],
        });

        // Next's request span ends after the response and may come in a later export batch than the tool
        // span: wait until the tool span's chain of parents reaches a span with no parent, the trace's root
        const spans = await waitFor(
          `the execute_tool span of ${callId} and every span above it, up to the trace's root`,
          async () => {
            const all = spansOf(receiver.requests);
            const toolSpan = all.find((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID] === callId);
            if (toolSpan === undefined) return undefined;
            const top = ancestorsOf(toolSpan, all).at(-1) ?? toolSpan;
            return top.parentSpanId === undefined ? all : undefined;
          },
          { timeoutMs: 20_000 },
        );
        const toolSpans = spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'execute_tool');
        expect(toolSpans.map((span) => [span.name, span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]])).toEqual([
          ['execute_tool getWeather', callId],
        ]);
        const [toolSpan] = toolSpans as [ExportedSpan];
        // its ancestors: the AI SDK's ai.toolCall (same call id), ai.generateText, and Next's span of the request
        const ancestors = ancestorsOf(toolSpan, spans);
        expect(ancestors[0]).toMatchObject({ name: 'ai.toolCall', attributes: { 'ai.toolCall.id': callId } });
        expect(ancestors.map((span) => span.name)).toContain('ai.generateText');
        expect(ancestors.at(-1)?.name).toBe('GET /api/weather');
        expect(new Set(ancestors.map((span) => span.traceId))).toEqual(new Set([toolSpan.traceId]));
        expect(toolSpan.serviceName).toBe('nextjs-weather-agent');

        const duration = await waitFor(
          `a ${METRIC_GEN_AI_EXECUTE_TOOL_DURATION} sample`,
          async () =>
            metricsOf(receiver.requests).find(
              (metric) => metric.name === METRIC_GEN_AI_EXECUTE_TOOL_DURATION && metric.total > 0,
            ),
          { timeoutMs: 20_000 },
        );
        expect(duration.total).toBe(1);
        expect(duration.points).toEqual([expect.objectContaining({ [ATTR_GEN_AI_TOOL_NAME]: 'getWeather' })]);
      }, 60_000);
    });
  }
});

/** `span`'s parent, its parent's parent, ..., up to the root, among `spans`. */
function ancestorsOf(span: ExportedSpan, spans: readonly ExportedSpan[]): ExportedSpan[] {
  const ancestors: ExportedSpan[] = [];
  for (let parentId = span.parentSpanId; parentId !== undefined; ) {
    const parent = spans.find((candidate) => candidate.spanId === parentId);
    if (parent === undefined) break;
    ancestors.push(parent);
    parentId = parent.parentSpanId;
  }
  return ancestors;
}
