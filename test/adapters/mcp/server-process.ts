import { type ChildProcess, spawn } from 'node:child_process';
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as Stdio2 } from '@modelcontextprotocol/client/stdio';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as Stdio1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as Http1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ToolCallListener } from 'otel-tool-calls';
import { instrumentClient } from 'otel-tool-calls/mcp';
import type { PropagatorName } from './propagators.js';
import type { TestClient } from './sdks.js';

/*
 * The weather server fixture (fixtures/weather-server.ts) in a child process of its own, and a
 * real client of the same SDK line connected to it over stdio or Streamable HTTP on 127.0.0.1.
 * Every wait is bounded; `stop()` ends the child this test started, by its pid.
 */

const repoRoot = new URL('../../..', import.meta.url).pathname;
const fixture = new URL('./fixtures/weather-server.ts', import.meta.url).pathname;
const STARTUP_MS = 60_000; // node --import tsx on a busy machine: slow, never asserted

export type SdkName = '1.x' | '2.x';
export type TransportName = 'stdio' | 'http';

export interface ServerProcess {
  readonly client: TestClient;
  /** The HTTP server's port (HTTP only). */
  readonly port: number | undefined;
  /** Resolves when the child has written `text` on its stderr. */
  stderrIncludes(text: string): Promise<void>;
  kill(): void;
  stop(): Promise<void>;
}

export async function startServerProcess(options: {
  sdk: SdkName;
  transport: TransportName;
  otlpUrl: string;
  instrumented: boolean;
  /** The server's global propagator (W3C when absent). */
  propagator?: PropagatorName;
  /** OpenInference's MCP instrumentation on the server's transports (1.x). */
  openInference?: boolean;
  /** Instruments the client with it before it connects (it then sees the initialize exchange). */
  clientListener?: ToolCallListener;
}): Promise<ServerProcess> {
  const env = {
    ...(process.env as Record<string, string>),
    MCP_SDK: options.sdk,
    MCP_TRANSPORT: options.transport,
    OTLP_URL: options.otlpUrl,
    INSTRUMENT: options.instrumented ? '1' : '0',
    PROPAGATOR: options.propagator ?? 'w3c',
    OPENINFERENCE: options.openInference ? '1' : '0',
  };
  const client = (options.sdk === '2.x'
    ? new Client2({ name: 'agent', version: '1.0.0' })
    : new Client1({ name: 'agent', version: '1.0.0' })) as unknown as TestClient;
  if (options.clientListener !== undefined) instrumentClient(client as never, options.clientListener);
  let stderr = '';
  const stderrWaiters: Array<() => void> = [];
  const onStderr = (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const wake of stderrWaiters.splice(0)) wake();
  };
  let child: ChildProcess | undefined;
  let pid: number | undefined;
  let port: number | undefined;

  if (options.transport === 'stdio') {
    const Stdio = options.sdk === '2.x' ? Stdio2 : Stdio1;
    const transport = new Stdio({
      command: process.execPath,
      args: ['--import', 'tsx', fixture],
      env,
      cwd: repoRoot,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', onStderr);
    await withDeadline(client.connect(transport), STARTUP_MS, 'the stdio server did not start');
    pid = transport.pid ?? undefined;
  } else {
    child = spawn(process.execPath, ['--import', 'tsx', fixture], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr?.on('data', onStderr);
    pid = child.pid;
    port = await withDeadline(
      new Promise<number>((resolve, reject) => {
        let out = '';
        child?.stdout?.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /listening (\d+)/.exec(out);
          if (match) resolve(Number(match[1]));
        });
        child?.once('exit', (code) => reject(new Error(`the HTTP server exited (${code}): ${stderr}`)));
      }),
      STARTUP_MS,
      'the HTTP server did not start',
    );
    const Http = options.sdk === '2.x' ? Http2 : Http1;
    await withDeadline(client.connect(new Http(new URL(`http://127.0.0.1:${port}/mcp`))), STARTUP_MS, 'no MCP session');
  }

  const kill = () => {
    if (pid !== undefined) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  return {
    client,
    port,
    async stderrIncludes(text) {
      await withDeadline(
        new Promise<void>((resolve) => {
          const check = () => (stderr.includes(text) ? resolve() : stderrWaiters.push(check));
          check();
        }),
        STARTUP_MS,
        `the server never wrote ${JSON.stringify(text)}`,
      );
    },
    kill,
    async stop() {
      await withDeadline(client.close(), 10_000, 'the client did not close').catch(() => {});
      kill();
    },
  };
}

/** `promise`, or a rejection naming what did not happen within `ms`: a bounded wait, not an assertion on time. */
export function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
