import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { functionToolCallback, OpenTelemetryToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import { ATTR_GEN_AI_TOOL_CALL_ARGUMENTS, ATTR_GEN_AI_TOOL_CALL_RESULT } from 'otel-tool-calls/semconv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useDiagLog } from '../helpers/diag-log.js';
import { createTestTelemetry } from '../helpers/otel-sdk.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';

const CAPTURE_ENV = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';
const SECRET_IN_ARGUMENTS = 'sk-live-ARGS-4f9a1c77e2';
const SECRET_IN_RESULT = 'sk-live-RESULT-0b3d5e8a91';

const logged = useDiagLog();
afterEach(() => {
  vi.unstubAllEnvs();
});

/**
 * Real OTLP/HTTP exporters for traces and metrics into a loopback receiver: the bytes checked are
 * the bytes a collector would get. Runs a success, a reported failure and a rethrown failure, all
 * with the secrets in their arguments and results (the error messages carry no secret: a message
 * is recorded by design).
 */
async function exportedPayload(options: { captureContent?: boolean }) {
  const receiver = await startOtlpReceiver();
  const tracerProvider = new TracerProvider({
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${receiver.url}/v1/traces` }) })],
  });
  const metricReader = new PeriodicExportingMetricReader({
    exporter: new OTLPMetricExporter({ url: `${receiver.url}/v1/metrics` }),
    exportIntervalMillis: 60_000,
  });
  const meterProvider = new MeterProvider({ readers: [metricReader] });
  const listener = new OpenTelemetryToolCallListener({
    tracerProvider,
    meterProvider,
    errorPolicy: 'report',
    ...options,
  });
  const input = { query: 'balance', apiKey: SECRET_IN_ARGUMENTS, nested: [{ token: SECRET_IN_ARGUMENTS }] };
  const result = { balance: 10, echo: SECRET_IN_RESULT };
  const ok = functionToolCallback({ name: 'bank' }, async () => result);
  const text = functionToolCallback({ name: 'note' }, () => `your key is ${SECRET_IN_RESULT}`);
  const fails = functionToolCallback({ name: 'transfer' }, async () => {
    throw new Error('insufficient funds');
  });
  try {
    expect(await ToolCallListeners.wrap(ok, listener).call(input)).toBe(result);
    expect(ToolCallListeners.wrap(text, listener).call(SECRET_IN_ARGUMENTS)).toContain(SECRET_IN_RESULT);
    expect(await ToolCallListeners.wrap(fails, listener).call(input, { toolCallId: 'call_1' })).toBe(
      "Tool 'transfer' failed: insufficient funds",
    );
    await tracerProvider.forceFlush();
    await metricReader.forceFlush();
    const traces = (await receiver.waitFor('/v1/traces')).body.toString('utf8');
    const metrics = (await receiver.waitFor('/v1/metrics')).body.toString('utf8');
    return { traces, metrics };
  } finally {
    await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    await receiver.close();
  }
}

describe('content capture is off by default', () => {
  it('no argument or result text reaches the exported spans, events or metrics (OTLP payload checked)', async () => {
    const { traces, metrics } = await exportedPayload({});
    // the payloads are real: the spans and the error are there...
    expect(traces).toContain('execute_tool transfer');
    expect(traces).toContain('insufficient funds');
    expect(metrics).toContain('gen_ai.execute_tool.duration');
    // ...and no secret, nor the attributes that would carry one
    for (const payload of [traces, metrics]) {
      expect(payload).not.toContain(SECRET_IN_ARGUMENTS);
      expect(payload).not.toContain(SECRET_IN_RESULT);
      expect(payload).not.toContain(ATTR_GEN_AI_TOOL_CALL_ARGUMENTS);
      expect(payload).not.toContain(ATTR_GEN_AI_TOOL_CALL_RESULT);
    }
    expect(logged.join('\n')).not.toContain('sk-live');
  });

  it('the same check does see the secrets when capture is turned on (so it can fail)', async () => {
    const { traces, metrics } = await exportedPayload({ captureContent: true });
    expect(traces).toContain(SECRET_IN_ARGUMENTS);
    expect(traces).toContain(SECRET_IN_RESULT);
    // content never goes into metrics, whatever the option
    expect(metrics).not.toContain(SECRET_IN_ARGUMENTS);
    expect(metrics).not.toContain(SECRET_IN_RESULT);
  });
});

describe('redact', () => {
  it('runs before truncation: a secret cut in half by maxContentLength is still redacted', () => {
    const telemetry = createTestTelemetry();
    const key = `sk-${'a1b2c3d4'.repeat(4)}`;
    const maskKeys = (value: unknown) => JSON.parse(JSON.stringify(value).replace(/sk-[a-z0-9]{32}/g, '[key]'));
    const seen: unknown[] = [];
    const listener = new OpenTelemetryToolCallListener({
      tracerProvider: telemetry.tracerProvider,
      captureContent: true,
      maxContentLength: 24,
      redact: (value, context) => {
        seen.push(context.kind === 'arguments' ? value : undefined);
        return maskKeys(value);
      },
    });
    const input = { k: key, padding: 'x'.repeat(100_000) };
    const echo = functionToolCallback({ name: 'echo' }, (value: unknown) => value);
    expect(ToolCallListeners.wrap(echo, listener).call(input)).toBe(input);
    // redact got the whole value, not the cut one
    expect(seen[0]).toBe(input);
    const span = telemetry.span('execute_tool echo');
    const args = span.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] as string;
    const result = span.attributes[ATTR_GEN_AI_TOOL_CALL_RESULT] as string;
    for (const captured of [args, result]) {
      expect(captured.length).toBeLessThanOrEqual(24);
      expect(captured).not.toContain('sk-');
      expect(captured.startsWith('{"k":"[key]"')).toBe(true);
    }
  });
});

describe('the text reported to the model', () => {
  const stackLike = new Error('db error');
  stackLike.message = `db error\n${stackLike.stack}`;
  const cases: [string, unknown][] = [
    ['an Error whose message embeds its own stack', stackLike],
    ['a 1 MB message with stack lines', new Error(`${'x'.repeat(1_000_000)}\n    at handler (/srv/app.js:1:1)`)],
    [
      'a thrown string with stack lines',
      `failed\n    at internal (/srv/secret.js:9:9)\n    at main (/srv/main.js:1:1)`,
    ],
    ['an object with a stack property', { message: 'bad', stack: 'Error: bad\n    at x (/srv/x.js:1:1)' }],
  ];
  it.each(cases)('never carries a stack trace and is bounded (%s)', async (_name, thrown) => {
    const telemetry = createTestTelemetry();
    const listener = new OpenTelemetryToolCallListener({
      tracerProvider: telemetry.tracerProvider,
      errorPolicy: 'report',
    });
    const tool = functionToolCallback({ name: 'db' }, async () => {
      throw thrown;
    });
    const text = (await ToolCallListeners.wrap(tool, listener).call(undefined)) as string;
    expect(text.startsWith("Tool 'db' failed: ")).toBe(true);
    expect(text).not.toMatch(/^\s*at .*\(.*:\d+:\d+\)/m);
    expect(text).not.toContain('/srv/');
    expect(text.length).toBeLessThanOrEqual(1100);
  });
});

describe(`${CAPTURE_ENV}`, () => {
  const toolSpanHasArguments = (telemetry: ReturnType<typeof createTestTelemetry>) => {
    const listener = new OpenTelemetryToolCallListener({ tracerProvider: telemetry.tracerProvider });
    ToolCallListeners.wrap(
      functionToolCallback({ name: 'probe' }, () => 'ok'),
      listener,
    ).call({ a: 1 });
    return telemetry.span('execute_tool probe').attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] !== undefined;
  };

  it.each(['true', 'TRUE', ' true '])('turns capture on for %j', (value) => {
    vi.stubEnv(CAPTURE_ENV, value);
    expect(toolSpanHasArguments(createTestTelemetry())).toBe(true);
    expect(logged).toEqual([]);
  });

  it.each(['false', ''])('leaves capture off, silently, for %j', (value) => {
    vi.stubEnv(CAPTURE_ENV, value);
    expect(toolSpanHasArguments(createTestTelemetry())).toBe(false);
    expect(logged).toEqual([]);
  });

  it.each(['1', 'yes', 'on', 'enabled', 'true;rm -rf /'])(
    'ignores %j with a diag warning naming the variable',
    (value) => {
      vi.stubEnv(CAPTURE_ENV, value);
      expect(toolSpanHasArguments(createTestTelemetry())).toBe(false);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain(CAPTURE_ENV);
      expect(logged[0]).toContain('expected true or false');
    },
  );
});
