import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const outDir = join(root, 'test-results', 'snippets');
// child processes (tsc over every snippet, tsx) on a busy shared machine: a generous bound
const TIMEOUT = 180_000;

interface Snippet {
  /** Where it is written: `docs/frameworks/mcp.md:6`. */
  readonly origin: string;
  readonly code: string;
  /** ```ts runs offline; ```ts typecheck needs what a reader has (a model, a collector) and is only type-checked. */
  readonly runs: boolean;
  readonly file: string;
}

function markdownFiles(): string[] {
  const docs = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? docs(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
    );
  return ['README.md', ...docs('docs')];
}

/** Every ```ts block of the README and docs/, each written to a module of its own. */
function extractSnippets(): Snippet[] {
  const snippets: Snippet[] = [];
  for (const path of markdownFiles()) {
    const lines = readFileSync(join(root, path), 'utf8').split('\n');
    for (let index = 0; index < lines.length; index++) {
      const fence = /^```ts( typecheck)?\s*$/.exec(lines[index] as string);
      if (!fence) continue;
      const start = index + 1;
      let end = start;
      while (end < lines.length && lines[end] !== '```') end++;
      const name = `${path.replace(/[/.]/g, '_')}_${start}.ts`;
      snippets.push({
        origin: `${path}:${start}`,
        // `export {}`: each snippet is a module of its own, whatever it declares
        code: `${lines.slice(start, end).join('\n')}\nexport {};\n`,
        runs: fence[1] === undefined,
        file: join(outDir, name),
      });
      index = end;
    }
  }
  return snippets;
}

const snippets = extractSnippets();
/** The first snippet of each framework page: the one that shows the page's telemetry. */
const frameworkPagesFirst = readdirSync(join(root, 'docs', 'frameworks')).flatMap((name) => {
  const first = snippets.find((snippet) => snippet.origin.startsWith(`docs/frameworks/${name}:`));
  return first ? [first] : [];
});

beforeAll(() => {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const snippet of snippets) writeFileSync(snippet.file, snippet.code);
  // the project's own compiler options and `paths`: `otel-tool-calls` resolves to src/, as in the examples
  writeFileSync(
    join(outDir, 'tsconfig.json'),
    JSON.stringify({ extends: '../../tsconfig.json', include: ['*.ts'], compilerOptions: { noEmit: true } }),
  );
});

describe('the snippets of the README and docs/', () => {
  it('are found: the README and each framework page have some', () => {
    const origins = snippets.map((snippet) => snippet.origin.split(':')[0]);
    for (const page of [
      'README.md',
      'docs/frameworks/ai-sdk.md',
      'docs/frameworks/mcp.md',
      'docs/frameworks/langchain.md',
      'docs/frameworks/openai-agents.md',
      'docs/frameworks/anthropic.md',
      'docs/frameworks/claude-agent-sdk.md',
      'docs/frameworks/mastra.md',
      'docs/frameworks/google-adk.md',
      'docs/frameworks/llamaindex.md',
      'docs/frameworks/genkit.md',
    ]) {
      expect(origins).toContain(page);
    }
  });

  it("show their telemetry: each framework page's first snippet starts an SDK", () => {
    expect(frameworkPagesFirst.length).toBe(readdirSync(join(root, 'docs', 'frameworks')).length);
    for (const first of frameworkPagesFirst)
      expect(first.code, first.origin).toMatch(/startToolCallTelemetry\(|new NodeSDK\(/);
  });

  it(
    'type-check as written',
    async () => {
      const result = await run('npx', ['--no-install', 'tsc', '-p', join(outDir, 'tsconfig.json')], {
        cwd: root,
        timeout: TIMEOUT,
      }).then(
        () => '',
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
      // name each error by the page and line of its snippet
      const byOrigin = result.replace(/test-results\/snippets\/(\S+?)\.ts\((\d+),(\d+)\)/g, (match, name, line) => {
        const snippet = snippets.find((candidate) => candidate.file.endsWith(`${name}.ts`));
        if (!snippet) return match;
        const [page, start] = snippet.origin.split(':');
        return `${page}:${Number(start) + Number(line) - 1}`;
      });
      expect(byOrigin).toBe('');
    },
    TIMEOUT,
  );

  const runnable = snippets.filter((snippet) => snippet.runs);
  it.each(runnable.map((snippet) => [snippet.origin, snippet] as const))(
    'run offline: %s',
    async (_origin, snippet) => {
      const { stdout } = await run('npx', ['--no-install', 'tsx', relative(root, snippet.file)], {
        cwd: root,
        timeout: TIMEOUT,
      });
      expect(stdout.trim().length).toBeGreaterThan(0);
      // a framework page's first snippet prints the spans of its tool calls (the console exporter's `name: '...'`)
      if (frameworkPagesFirst.includes(snippet)) expect(stdout).toMatch(/^ {2}name: '(execute_tool|tools\/call) /m);
    },
    TIMEOUT,
  );
});
