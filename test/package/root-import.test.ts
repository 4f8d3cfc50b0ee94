import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FRAMEWORKS = [
  'ai',
  '@modelcontextprotocol/sdk',
  '@langchain/core',
  '@openai/agents',
  '@anthropic-ai/sdk',
  '@anthropic-ai/claude-agent-sdk',
  'zod',
];

/**
 * Imports a built entry point in a fresh Node process and returns every package its import graph
 * loaded: through a module resolution hook for ESM, from `require.cache` for CJS.
 */
function packagesLoadedBy(entry: string, format: 'esm' | 'cjs'): string[] {
  const hook = `
    let port;
    export function initialize(data) { port = data.port; }
    export async function resolve(specifier, context, next) {
      const result = await next(specifier, context);
      if (result.url.includes('/node_modules/')) port.postMessage(result.url);
      return result;
    }`;
  const script = `
    import { createRequire, register } from 'node:module';
    import { MessageChannel } from 'node:worker_threads';
    const loaded = new Set();
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (url) => loaded.add(url));
    port1.unref();
    register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}), { data: { port: port2 }, transferList: [port2] });
    if (${JSON.stringify(format)} === 'esm') await import(${JSON.stringify(`${root}dist/${entry}.js`)});
    else {
      const require = createRequire(import.meta.url);
      require(${JSON.stringify(`${root}dist/${entry}.cjs`)});
      for (const path of Object.keys(require.cache)) loaded.add(path);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    console.log(JSON.stringify([...loaded]));`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  const paths: string[] = JSON.parse(output.trim().split('\n').pop() as string);
  const packages = paths
    .filter((path) => path.includes('/node_modules/'))
    .map((path) => {
      const parts = (path.split('/node_modules/').pop() as string).split('/');
      return (parts[0] as string).startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] as string);
    });
  return [...new Set(packages)].sort();
}

beforeAll(() => {
  if (!existsSync(`${root}dist/index.js`)) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
}, 120_000);

describe('the root entry point', () => {
  it.each(['esm', 'cjs'] as const)(
    'loads no framework, no OpenTelemetry SDK and no semantic-conventions package: the API alone (%s)',
    (format) => {
      const loaded = packagesLoadedBy('index', format);
      for (const framework of FRAMEWORKS) expect(loaded).not.toContain(framework);
      expect(loaded).toEqual(['@opentelemetry/api']);
    },
  );

  it('a framework subpath loads its framework (the hook sees real imports)', () => {
    expect(packagesLoadedBy('openai-agents', 'esm')).toContain('@openai/agents');
    expect(packagesLoadedBy('anthropic', 'esm')).toContain('@anthropic-ai/sdk');
  });

  it.each(['esm', 'cjs'] as const)(
    'otel-tool-calls/claude-agent-sdk loads nothing of the SDK: types only (%s)',
    (format) => {
      expect(packagesLoadedBy('claude-agent-sdk', format)).not.toContain('@anthropic-ai/claude-agent-sdk');
    },
  );

  it('exports the public API by name, and nothing else', async () => {
    const api = await import('otel-tool-calls');
    expect(Object.keys(api).sort()).toEqual([
      'OpenTelemetryToolCallListener',
      'ToolCallListeners',
      'ToolResultError',
      'functionToolCallback',
    ]);
  });
});

describe('otel-tool-calls/semconv', () => {
  it('has the attribute and metric names, as constants only', async () => {
    const semconv = await import('otel-tool-calls/semconv');
    const names = Object.keys(semconv);
    expect(names.length).toBeGreaterThan(15);
    for (const name of names) expect(name).toMatch(/^(ATTR|METRIC|EVENT|GEN_AI|TOOL_CALL|MCP|ERROR_TYPE)_[A-Z_]+$/);
    expect(semconv.ATTR_GEN_AI_TOOL_NAME).toBe('gen_ai.tool.name');
    expect(semconv.METRIC_GEN_AI_EXECUTE_TOOL_DURATION).toBe('gen_ai.execute_tool.duration');
  });

  it.each(['esm', 'cjs'] as const)('loads nothing but its own file (%s)', (format) => {
    expect(packagesLoadedBy('semconv', format)).toEqual([]);
  });
});

describe('otel-tool-calls/setup', () => {
  it.each(['esm', 'cjs'] as const)('loads no OpenTelemetry SDK package until it is called (%s)', (format) => {
    expect(packagesLoadedBy('setup', format)).toEqual(['@opentelemetry/api']);
  });
});

describe('otel-tool-calls/instrumentation', () => {
  it.each(['esm', 'cjs'] as const)(
    'loads no framework and no SDK: only @opentelemetry/instrumentation and its hooks (%s)',
    (format) => {
      const loaded = packagesLoadedBy('instrumentation', format);
      expect(loaded).toContain('@opentelemetry/instrumentation');
      for (const framework of FRAMEWORKS) expect(loaded).not.toContain(framework);
      expect(loaded.filter((name) => name.startsWith('@opentelemetry/sdk') || name.includes('exporter'))).toEqual([]);
    },
  );
});
