import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { appFolder, buildPackageIfMissing, fixtureFile } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

/** The JSON-RPC messages a client sends: the handshake, one tool call. */
const CLIENT_MESSAGES = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'strict', version: '1.0.0' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'weather', arguments: { city: 'Oslo' } } },
];

/**
 * A stdio MCP server (SDK 1.x) under register, driven as a strict client would, byte by byte: the
 * messages written to its stdin, its stdin ended once the tool call is answered (the client leaves),
 * and everything it wrote on stdout and stderr until it exited.
 */
async function stdioServerUnderRegister(logLevel: string, sdk: string) {
  const receiver = await startOtlpReceiver();
  try {
    const env: Record<string, string | undefined> = { ...process.env };
    for (const key of Object.keys(env)) if (key.startsWith('OTEL_')) delete env[key];
    Object.assign(env, {
      OTEL_SERVICE_NAME: 'stdio-server',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_LOG_LEVEL: logLevel,
      OTEL_TOOL_CALLS_SDK: sdk,
      // a 10 s export interval, shorter than the default export timeout: the SDK says so, at info
      OTEL_METRIC_EXPORT_INTERVAL: '10000',
    });
    const child = spawn(
      process.execPath,
      ['--import', 'otel-tool-calls/register', fixtureFile('mcp-stdio-server.mjs')],
      {
        cwd: appFolder(),
        env,
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      // the tool call answered: the client leaves
      if (stdout.split('\n').some((line) => line.includes('"id":2'))) child.stdin.end();
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    for (const message of CLIENT_MESSAGES) child.stdin.write(`${JSON.stringify(message)}\n`);
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    return { code, stdout, stderr };
  } finally {
    await receiver.close();
  }
}

describe('otel-tool-calls/register: its diagnostics (OTEL_LOG_LEVEL) on stderr', () => {
  it.each([
    ['info', 'lean'],
    ['debug', 'lean'],
    ['info', 'node-sdk'],
    ['debug', 'node-sdk'],
  ])(
    'OTEL_LOG_LEVEL=%s, OTEL_TOOL_CALLS_SDK=%s: a stdio MCP server’s stdout has its JSON-RPC messages only; the diagnostics are on stderr',
    async (logLevel, sdk) => {
      const run = await stdioServerUnderRegister(logLevel, sdk);
      expect(run.code).toBe(0);
      const lines = run.stdout.split('\n').filter((line) => line !== '');
      const notJsonRpc = lines.filter((line) => {
        try {
          return (JSON.parse(line) as { jsonrpc?: unknown }).jsonrpc !== '2.0';
        } catch {
          return true;
        }
      });
      expect(notJsonRpc).toEqual([]);
      expect(lines.map((line) => (JSON.parse(line) as { id?: unknown }).id)).toEqual([1, 2]);
      // what the level shows: the SDK's own lines, at info and at debug
      expect(run.stderr).toContain('Clamping timeout to interval value.');
      if (logLevel === 'debug')
        expect(run.stderr).toContain('OTEL_METRICS_EXPORTER is empty. Using default otlp exporter.');
    },
    60_000,
  );
});
