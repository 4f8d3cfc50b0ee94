/**
 * Traces in the real Jaeger v2 (built by scripts/services.sh), run with the stack's
 * observability/jaeger/config.yaml on 127.0.0.1: an instrumented app (fixtures/traced-agent.ts) and the
 * demo export over OTLP/HTTP, and Jaeger's own query API (/api/traces) must give back every
 * `execute_tool` span they counted (0 lost), each under its agent span, failures with `error=true` and the
 * exception as a span log, under the right service name.
 * The two-process MCP call of examples/mcp-distributed is one trace across two services there.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetricsTable, parseToolTable } from '../helpers/demo.js';
import { freePort } from '../helpers/free-port.js';
import { type JaegerSpan, parentOf, type RunningJaeger, startJaeger, tag } from '../helpers/jaeger.js';
import { skipOrFail, waitFor } from '../helpers/prometheus.js';
import { serviceGate } from '../helpers/service-binaries.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/traced-agent.ts', import.meta.url));
const jaegerGate = serviceGate('jaeger');

/** Runs a Node script (through tsx) to its end, bounded, and returns its output; fails on a non-zero exit. */
function runNode(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', script, ...args],
      { cwd: root, env: { ...process.env, ...env }, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${script} failed: ${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout),
    );
  });
}

/** The spans Jaeger has for `service`, once it has at least `expected` execute_tool spans (bounded wait). */
async function toolSpansInJaeger(jaeger: RunningJaeger, service: string, expected: number) {
  return waitFor(
    `${expected} execute_tool spans of ${service} in Jaeger`,
    async () => {
      const traces = await jaeger.traces(service);
      const spans = traces.flatMap((trace) =>
        trace.spans.map((span) => ({ span, service: trace.processes[span.processID]?.serviceName, trace })),
      );
      const tools = spans.filter(({ span }) => span.operationName.startsWith('execute_tool '));
      if (tools.length < expected) throw new Error(`${tools.length} of ${expected} so far`);
      return { traces, spans, tools };
    },
    { timeoutMs: 30_000, intervalMs: 500 },
  );
}

/** The exception log the listener adds on a failure (an `exception` span event). */
function exceptionLog(span: JaegerSpan) {
  const log = span.logs.find((l) => tag(l.fields, 'event') === 'exception');
  return log && Object.fromEntries(log.fields.map((field) => [field.key, field.value]));
}

describe('traces in the real Jaeger v2', () => {
  let jaeger: RunningJaeger | undefined;

  beforeAll(async () => {
    if (!jaegerGate.path) return;
    jaeger = await startJaeger(jaegerGate.path);
  }, 60_000);

  afterAll(async () => {
    await jaeger?.stop();
  });

  it('has every execute_tool span an instrumented app counted, under its agent span, failures marked', async (ctx) => {
    if (!jaeger) return skipOrFail(ctx, jaegerGate);
    const service = 'tool-calls-traced-fixture';
    const stdout = await runNode(fixture, ['--runs', '40', '--service', service], {
      OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpHttpUrl,
    });
    const counted = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as {
      agentSpans: Array<{ spanId: string; traceId: string }>;
      toolSpans: Array<{ spanId: string; traceId: string; parentSpanId: string; name: string; failed: boolean }>;
    };
    expect(counted.agentSpans).toHaveLength(40);
    expect(counted.toolSpans).toHaveLength(120);

    const { traces, tools, spans } = await toolSpansInJaeger(jaeger, service, counted.toolSpans.length);
    // 0 lost, none extra: the same span ids, in the traces the app put them in
    expect(tools.map(({ span }) => span.spanID).sort()).toEqual(counted.toolSpans.map((s) => s.spanId).sort());
    expect(traces).toHaveLength(40);
    const byId = new Map(spans.map(({ span }) => [span.spanID, span]));
    for (const expected of counted.toolSpans) {
      const span = byId.get(expected.spanId)!;
      expect(span.traceID).toBe(expected.traceId);
      expect(span.operationName).toBe(expected.name);
      // under its agent span, which Jaeger has too
      expect(parentOf(span)).toBe(expected.parentSpanId);
      const parent = byId.get(parentOf(span) ?? '');
      expect(parent?.operationName).toBe('invoke_agent support-agent');
      expect(tag(span.tags, 'gen_ai.agent.name')).toBe('support-agent');
      expect(tag(span.tags, 'gen_ai.operation.name')).toBe('execute_tool');
    }
    expect(new Set(spans.map((s) => s.service))).toEqual(new Set([service]));
    expect(await jaeger.services()).toContain(service);

    // failures: error=true, the status and the exception as a span log; successes: neither
    const failed = tools.filter(({ span }) => tag(span.tags, 'error') === true).map(({ span }) => span);
    expect(failed.map((span) => span.spanID).sort()).toEqual(
      counted.toolSpans
        .filter((s) => s.failed)
        .map((s) => s.spanId)
        .sort(),
    );
    expect(failed).toHaveLength(20 + 14); // charge_card on odd runs, refund on runs 0, 3, ..., 39
    for (const span of failed) {
      const tool = tag(span.tags, 'gen_ai.tool.name');
      const code = tool === 'charge_card' ? 'CARD_DECLINED' : 'GATEWAY_TIMEOUT';
      expect(tag(span.tags, 'error.type'), span.operationName).toBe(code);
      expect(tag(span.tags, 'tool_call.error.outcome')).toBe(tool === 'charge_card' ? 'reported' : 'rethrown');
      expect(tag(span.tags, 'otel.status_code')).toBe('ERROR');
      const exception = exceptionLog(span);
      expect(exception, span.operationName).toMatchObject({ 'exception.type': code });
      expect(String(exception?.['exception.message'])).toMatch(
        /^(card declined|payment gateway timed out) for run \d+$/,
      );
    }
    for (const { span } of tools.filter(({ span }) => tag(span.tags, 'error') !== true)) {
      expect(exceptionLog(span)).toBeUndefined();
      expect(tag(span.tags, 'otel.status_code')).toBeUndefined();
    }
  }, 120_000);

  it('has every execute_tool span of a demo run, as many per tool as its table counts', async (ctx) => {
    if (!jaeger) return skipOrFail(ctx, jaegerGate);
    const metricsPort = await freePort();
    const stdout = await runNode(
      fileURLToPath(new URL('../../examples/demo/main.ts', import.meta.url)),
      ['--duration', '3', '--rate', '5', '--metrics-port', String(metricsPort)],
      { OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpHttpUrl, OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1' },
    );
    // the demo's own accounts: the calls its tools ran (its spans' table), every call its metrics counted
    // (the model's wrong ones too, each an execute_tool span as well), and the spans delivered
    const table = parseToolTable(stdout);
    const counted = [...parseMetricsTable(stdout).values()].reduce((sum, row) => sum + row.calls, 0);
    const delivered = Number(/^Traces: (\d+) spans delivered to /m.exec(stdout)?.[1]);
    expect(table.size, stdout).toBe(5);
    expect(counted).toBeGreaterThan(0);

    const { tools, spans } = await toolSpansInJaeger(jaeger, 'tool-calls-demo', counted);
    expect(spans).toHaveLength(delivered); // every span the exporter delivered is stored, no more
    expect(tools).toHaveLength(counted);
    const ran = tools.filter(({ span }) => tag(span.tags, 'tool_call.error.source') !== 'model');
    for (const [tool, row] of table) {
      const ofTool = ran.filter(({ span }) => span.operationName === `execute_tool ${tool}`).map(({ span }) => span);
      expect(ofTool, tool).toHaveLength(row.calls);
      expect(
        ofTool.filter((span) => tag(span.tags, 'error') === true),
        tool,
      ).toHaveLength(row.reported + row.rethrown);
      for (const span of ofTool.filter((s) => tag(s.tags, 'error') === true)) {
        expect(exceptionLog(span), tool).toBeDefined();
      }
    }
    const byId = new Map(spans.map(({ span }) => [span.spanID, span]));
    for (const { span, service } of tools) {
      expect(service).toBe('tool-calls-demo');
      const parent = byId.get(parentOf(span) ?? '');
      // under the invoke_agent span of the same agent
      expect(parent?.operationName, span.operationName).toBe(`invoke_agent ${tag(span.tags, 'gen_ai.agent.name')}`);
    }
  }, 120_000);

  it('has the two-process MCP call of examples/mcp-distributed as one trace across two services', async (ctx) => {
    if (!jaeger) return skipOrFail(ctx, jaegerGate);
    await runNode(fileURLToPath(new URL('../../examples/mcp-distributed/main.ts', import.meta.url)), [], {
      OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpHttpUrl,
    });
    const running = jaeger;
    // each process exports on its own: the trace is read again until both sides' tools/call span are in it
    const { trace, client, server } = await waitFor(
      'the tools/call span of both services in Jaeger',
      async () => {
        const [found] = await running.traces('mcp-agent');
        const serviceOf = (span: JaegerSpan) => found?.processes[span.processID]?.serviceName;
        const call = (service: string) =>
          found?.spans.find((span) => span.operationName === 'tools/call weather' && serviceOf(span) === service);
        const [client, server] = [call('mcp-agent'), call('mcp-weather-server')];
        if (!found || !client || !server) throw new Error('not both sides yet');
        return { trace: found, client, server };
      },
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    expect(tag(client.tags, 'span.kind')).toBe('client');
    expect(tag(server.tags, 'span.kind')).toBe('server');
    expect(parentOf(server)).toBe(client.spanID);
    expect(new Set(trace.spans.map((span) => span.traceID))).toEqual(new Set([client.traceID]));
  }, 120_000);
});
