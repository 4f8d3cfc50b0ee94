import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';

const run = promisify(execFile);
const repoRoot = new URL('../..', import.meta.url).pathname;

let jaeger: Awaited<ReturnType<typeof startOtlpReceiver>>;
beforeEach(async () => {
  jaeger = await startOtlpReceiver(); // stands in for the compose stack's Jaeger
});
afterEach(() => jaeger.close());

describe('examples/mcp-distributed', () => {
  it('prints one call of two processes as one trace, and sends the same trace to the OTLP endpoint', async () => {
    const { stdout } = await run('npx', ['tsx', 'examples/mcp-distributed/main.ts'], {
      cwd: repoRoot,
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.url },
    });

    const lines = stdout.trimEnd().split('\n');
    expect(lines).toContain('weather: sunny in Oslo');
    const tree = lines.filter((line) => / \d+\.\d ms/.test(line)).map((line) => line.replace(/ [\d.]+ ms.*$/, ''));
    // every MCP operation has its spans: the session's initialize exchange, connected inside the agent's span
    expect(tree).toEqual([
      'invoke_agent weather-agent [INTERNAL] mcp-agent',
      '├─ initialize [CLIENT] mcp-agent',
      '│  └─ initialize [SERVER] mcp-weather-server',
      '├─ notifications/initialized [CLIENT] mcp-agent',
      '│  └─ notifications/initialized [SERVER] mcp-weather-server',
      '└─ tools/call weather [CLIENT] mcp-agent',
      '   └─ tools/call weather [SERVER] mcp-weather-server',
      '      └─ lookup forecast [INTERNAL] mcp-weather-server',
    ]);
    const summary = lines.find((line) => line.startsWith('8 spans'));
    expect(summary).toMatch(/^8 spans, one trace \([0-9a-f]{32}\), 2 services \(mcp-agent, mcp-weather-server\)$/);
    const traceId = /\(([0-9a-f]{32})\)/.exec(summary ?? '')?.[1];

    // what Jaeger would get: the spans of both services, in the same trace
    const received = jaeger.requests
      .filter((request) => request.path === '/v1/traces')
      .flatMap((request) => JSON.parse(request.body.toString()).resourceSpans);
    const byService = new Map<string, Set<string>>();
    for (const resource of received) {
      const service = resource.resource.attributes.find((a: { key: string }) => a.key === 'service.name').value
        .stringValue as string;
      for (const scope of resource.scopeSpans) {
        for (const span of scope.spans) {
          byService.set(service, (byService.get(service) ?? new Set()).add(span.traceId));
        }
      }
    }
    expect([...byService.keys()].sort()).toEqual(['mcp-agent', 'mcp-weather-server']);
    expect([...byService.values()].map((ids) => [...ids])).toEqual([[traceId], [traceId]]);
    expect(lines.at(-1)).toMatch(/^Jaeger: the agent's 4 spans delivered to /);
  }, 120_000); // two child processes under npx tsx: slow on a busy machine, never timed
});
