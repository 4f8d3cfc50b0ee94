import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { DiagLogLevel, diag, trace } from '@opentelemetry/api';
import { functionToolCallback, OpenTelemetryToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import { startToolCallTelemetry } from 'otel-tool-calls/setup';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freePort } from './helpers/free-port.js';
import { otlpAttributes, startOtlpReceiver } from './helpers/otlp-receiver.js';

const run = promisify(execFile);
const silentDiag = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {}, verbose: () => {} };
const root = fileURLToPath(new URL('..', import.meta.url));
const source = (file: string) => pathToFileURL(join(root, 'src', file)).href;

/**
 * A user's program, in a process of its own (how long it takes to end, what it prints on stderr):
 * a tool call observed under startToolCallTelemetry(options), `then` (code), then
 * `await telemetry.shutdown()`. It prints the tool's result, how long shutdown() took and, at exit,
 * how long after shutdown() the process ended.
 */
async function runProgram(options: string, env: NodeJS.ProcessEnv, then = '') {
  const dir = await mkdtemp(join(tmpdir(), 'otel-tool-calls-setup-'));
  try {
    const program = join(dir, 'main.mts');
    await writeFile(
      program,
      `import { functionToolCallback, OpenTelemetryToolCallListener, ToolCallListeners } from '${source('index.ts')}';
      import { startToolCallTelemetry } from '${source('setup.ts')}';
      const telemetry = startToolCallTelemetry(${options});
      const weather = functionToolCallback({ name: 'weather' }, async () => 'sunny');
      console.log(await ToolCallListeners.wrap(weather, new OpenTelemetryToolCallListener()).call({}));
      ${then}
      const stopping = performance.now();
      process.on('exit', () => console.log('ended ' + Math.round(performance.now() - stopping)));
      await telemetry.shutdown();
      console.log('shutdown ' + Math.round(performance.now() - stopping));`,
    );
    // tsx from the repository: the program imports the package's sources
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', program], {
      cwd: root,
      env: { ...process.env, ...env },
      timeout: 60_000,
    });
    const lines = stdout.trim().split('\n');
    const ms = (name: string) => Number(lines.find((line) => line.startsWith(`${name} `))?.slice(name.length + 1));
    return {
      lines,
      result: lines[0],
      shutdownMs: ms('shutdown'),
      endedMs: ms('ended'),
      stderr: stderr.trim().split('\n'),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('startToolCallTelemetry', () => {
  it('exports spans over OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT respected) and serves Prometheus metrics', async () => {
    const receiver = await startOtlpReceiver();
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.url);
    const port = await freePort();
    const telemetry = startToolCallTelemetry({
      serviceName: 'setup-test',
      serviceVersion: '1.2.3',
      prometheusPort: port,
      prometheusHost: '127.0.0.1',
    });
    try {
      expect(telemetry.metricsUrl).toBe(`http://127.0.0.1:${port}/metrics`);
      const listener = new OpenTelemetryToolCallListener();
      const tool = functionToolCallback({ name: 'lookup' }, async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return 'ok';
      });
      await ToolCallListeners.wrap(tool, listener).call(undefined);

      const metrics = await (await fetch(telemetry.metricsUrl as string)).text();
      expect(metrics).toMatch(/gen_ai_execute_tool_duration_count\{[^}]*gen_ai_tool_name="lookup"[^}]*\} 1/);
      expect(metrics).toMatch(/target_info\{[^}]*service_name="setup-test"/);
      await telemetry.shutdown();

      const request = await receiver.waitFor('/v1/traces');
      const payload = JSON.parse(request.body.toString('utf8'));
      const resource = otlpAttributes(payload.resourceSpans[0].resource.attributes);
      expect(resource['service.name']).toBe('setup-test');
      expect(resource['service.version']).toBe('1.2.3');
      expect(payload.resourceSpans[0].scopeSpans[0].spans[0].name).toBe('execute_tool lookup');
    } finally {
      await telemetry.shutdown();
      await receiver.close();
    }
  });

  it('reads the OTEL_BSP_* variables for its batch span processor', async () => {
    const receiver = await startOtlpReceiver();
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.url);
    vi.stubEnv('OTEL_BSP_SCHEDULE_DELAY', '10');
    const telemetry = startToolCallTelemetry({ serviceName: 'bsp-test', metrics: 'none' });
    try {
      const tool = functionToolCallback({ name: 'quick' }, () => 'ok');
      ToolCallListeners.wrap(tool, new OpenTelemetryToolCallListener()).call(undefined);
      // exported by the 10 ms schedule, long before the 5 s default and without a shutdown
      const request = await receiver.waitFor('/v1/traces', 3_000);
      expect(JSON.parse(request.body.toString('utf8')).resourceSpans[0].scopeSpans[0].spans[0].name).toBe(
        'execute_tool quick',
      );
    } finally {
      await telemetry.shutdown();
      await receiver.close();
    }
  });

  it('reads the OTEL_BSP_* variables as register does: a value not over 0 is the default, with a warning', async () => {
    const warnings: string[] = [];
    diag.setLogger({ ...silentDiag, warn: (message: string) => warnings.push(message) }, DiagLogLevel.WARN);
    vi.stubEnv('OTEL_BSP_SCHEDULE_DELAY', '0');
    vi.stubEnv('OTEL_BSP_MAX_QUEUE_SIZE', '64');
    const telemetry = startToolCallTelemetry({ serviceName: 'bsp-test', metrics: 'none' });
    try {
      const provider = (trace.getTracerProvider() as unknown as { getDelegate(): object }).getDelegate() as {
        _activeSpanProcessor: { _spanProcessors: Array<Record<string, unknown>> };
      };
      const [batch] = provider._activeSpanProcessor._spanProcessors;
      expect(batch).toMatchObject({ _scheduledDelayMillis: 5000, _maxQueueSize: 64 });
      expect(warnings).toContain(
        'OTEL_BSP_SCHEDULE_DELAY (0) is invalid, expected number greater than 0, using default.',
      );
    } finally {
      await telemetry.shutdown();
      diag.disable();
    }
  });

  it('rejects invalid options with a TypeError naming them', () => {
    const start = startToolCallTelemetry as (options: unknown) => unknown;
    expect(() => start(undefined)).toThrow(/`options` must be an object/);
    expect(() => start({ serviceName: '' })).toThrow(/`serviceName` must be a non-empty string/);
    expect(() => start({ serviceName: 's', metrics: 'statsd' })).toThrow(/`metrics` must be/);
    expect(() => start({ serviceName: 's', traces: 'jaeger' })).toThrow(/`traces` must be/);
    expect(() => start({ serviceName: 's', prometheusPort: 70000 })).toThrow(/`prometheusPort`/);
    expect(() => start({ serviceName: 's', spanProcessors: 'batch' })).toThrow(/`spanProcessors` must be an array/);
    expect(() => start({ serviceName: 's', resourceAttributes: 'a=b' })).toThrow(
      /`resourceAttributes` must be an object/,
    );
    expect(() => start({ serviceName: 's', serviceVersion: 1 })).toThrow(/`serviceVersion` must be a string/);
    expect(() => start({ serviceName: 's', prometheusHost: 0 })).toThrow(/`prometheusHost` must be a string/);
  });

  // the OTLP exporter retries a refused connection 5 times, after 1, 1.5, 2.25, 3.4 and 5 s (each −20 %
  // at most): 10.5 s at the least, with OTEL_EXPORTER_OTLP_TIMEOUT long enough to let it
  const EXPORTER_RETRIES_MS = 10_000;

  it('shutdown() with no collector returns after OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS, not the exporter’s retries, says so in one line on stderr, and the app ends', async () => {
    const closedPort = await freePort();
    const run = await runProgram(`{ serviceName: 'no-collector', metrics: 'none' }`, {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${closedPort}`,
      OTEL_EXPORTER_OTLP_TIMEOUT: '60000',
      OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS: '100',
    });
    expect(run.result).toBe('sunny');
    expect(run.shutdownMs).toBeLessThan(EXPORTER_RETRIES_MS);
    // the retries still pending no longer keep the process alive
    expect(run.endedMs).toBeLessThan(EXPORTER_RETRIES_MS);
    expect(run.stderr).toEqual([
      'otel-tool-calls: telemetry not delivered: the exporters had not finished 100 ms after shutdown() ' +
        '(is the collector running?); OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS sets how long shutdown() waits',
    ]);
  }, 60_000);

  it('shutdown() unset: bounded by the default 1000 ms, as register’s exit flush', async () => {
    const closedPort = await freePort();
    const run = await runProgram(`{ serviceName: 'no-collector', metrics: 'none' }`, {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${closedPort}`,
      OTEL_EXPORTER_OTLP_TIMEOUT: '60000',
      OTEL_TOOL_CALLS_SHUTDOWN_TIMEOUT_MS: '',
    });
    expect(run.shutdownMs).toBeLessThan(EXPORTER_RETRIES_MS);
    expect(run.endedMs).toBeLessThan(EXPORTER_RETRIES_MS);
    expect(run.stderr).toEqual([expect.stringContaining('the exporters had not finished 1000 ms after shutdown()')]);
  }, 60_000);

  it('the Prometheus endpoint listens on every interface by default, on both SDK lines (a container reaches it)', async () => {
    const port = await freePort();
    const telemetry = startToolCallTelemetry({ serviceName: 'every-interface', traces: 'none', prometheusPort: port });
    try {
      expect(telemetry.metricsUrl).toBe(`http://localhost:${port}/metrics`);
      await ToolCallListeners.wrap(
        functionToolCallback({ name: 'lookup' }, async () => 'ok'),
        new OpenTelemetryToolCallListener(),
      ).call(undefined);
      // through this machine's own non-loopback address, as a Prometheus in a container (host.docker.internal)
      // or on another host does; 0.301's default (localhost) refuses it
      const external = Object.values(networkInterfaces())
        .flat()
        .find((address) => address?.family === 'IPv4' && !address.internal)?.address;
      if (external !== undefined) {
        const scraped = await (await fetch(`http://${external}:${port}/metrics`)).text();
        expect(scraped).toMatch(/gen_ai_execute_tool_duration_count\{[^}]*gen_ai_tool_name="lookup"/);
      }
      // and the port is taken on every interface, not only on 127.0.0.1
      const other = createServer();
      const bound = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
        other.once('error', resolve);
        other.listen(port, '0.0.0.0', () => resolve(undefined));
      });
      other.close();
      expect(bound?.code).toBe('EADDRINUSE');
    } finally {
      await telemetry.shutdown();
    }
  });

  it('a Prometheus port another process holds on every interface is said, in-process too (both SDK lines)', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '0.0.0.0', resolve));
    const { port } = taken.address() as AddressInfo;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const telemetry = startToolCallTelemetry({ serviceName: 'port-taken', traces: 'none', prometheusPort: port });
    try {
      await vi.waitFor(() => expect(warn).toHaveBeenCalled(), { timeout: 10_000 });
      expect(warn.mock.calls).toEqual([
        [
          `otel-tool-calls: no Prometheus metrics from this process: port ${port} is in use ` +
            `(http://localhost:${port}/metrics is another process's); set prometheusPort or OTEL_EXPORTER_PROMETHEUS_PORT`,
        ],
      ]);
    } finally {
      warn.mockRestore();
      await telemetry.shutdown();
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('a Prometheus port another process holds on every interface is said too (the default host)', async () => {
    const taken = createServer((_request, response) => response.end('# the other process'));
    await new Promise<void>((resolve) => taken.listen(0, '0.0.0.0', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const run = await runProgram(
        `{ serviceName: 'port-taken', traces: 'none', prometheusPort: ${port} }`,
        { OTEL_EXPORTER_PROMETHEUS_HOST: '' },
        'console.log(await (await fetch(telemetry.metricsUrl)).text());',
      );
      expect(run.result).toBe('sunny');
      expect(run.lines[1]).toBe('# the other process');
      expect(run.stderr).toEqual([
        `otel-tool-calls: no Prometheus metrics from this process: port ${port} is in use ` +
          `(http://localhost:${port}/metrics is another process's); set prometheusPort or OTEL_EXPORTER_PROMETHEUS_PORT`,
      ]);
    } finally {
      taken.closeAllConnections();
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 60_000);

  it('a Prometheus port in use is one line on stderr naming the port and the fix, never silence', async () => {
    // another process's metrics endpoint
    const taken = createServer((_request, response) => response.end('# the other process'));
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const run = await runProgram(
        `{ serviceName: 'port-taken', traces: 'none', prometheusPort: ${port}, prometheusHost: '127.0.0.1' }`,
        {},
        // the app runs on (its exporter tries to listen), and what its metrics URL serves is not its own
        'console.log(await (await fetch(telemetry.metricsUrl)).text());',
      );
      expect(run.result).toBe('sunny');
      expect(run.lines[1]).toBe('# the other process');
      expect(run.stderr).toEqual([
        `otel-tool-calls: no Prometheus metrics from this process: port ${port} is in use ` +
          `(http://127.0.0.1:${port}/metrics is another process's); set prometheusPort or OTEL_EXPORTER_PROMETHEUS_PORT`,
      ]);
    } finally {
      taken.closeAllConnections();
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 60_000);
});
