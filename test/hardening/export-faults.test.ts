import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { functionToolCallback, OpenTelemetryToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import { startToolCallTelemetry } from 'otel-tool-calls/setup';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useDiagLog } from '../helpers/diag-log.js';
import { createTestTelemetry } from '../helpers/otel-sdk.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { closedEndpoint, hangingEndpoint, settlesWithin } from './helpers/faulty-endpoints.js';

const EXPORT_TIMEOUT_MS = 300;
/** Far above the exporter timeout: reaching it means shutdown hung, not that the machine was slow. */
const HANG_LIMIT_MS = 20_000;

// export failures are logged through diag (never thrown at the application): kept here, off the console
const _logged = useDiagLog();
afterEach(() => {
  vi.unstubAllEnvs();
  // startToolCallTelemetry registers the global API; each test starts from none
  trace.disable();
  metrics.disable();
  context.disable();
  propagation.disable();
});

const answer = { rows: [1, 2, 3] };
const failure = Object.assign(new Error('upstream down'), { code: 'EUPSTREAM' });
const lookup = functionToolCallback({ name: 'lookup' }, async () => answer);
const broken = functionToolCallback({ name: 'broken' }, async () => {
  throw failure;
});

/** Calls the tools as an agent would while the exporter fails; every result must be untouched. */
async function callThroughFailingExport() {
  const rethrowing = new OpenTelemetryToolCallListener();
  const reporting = new OpenTelemetryToolCallListener({ errorPolicy: 'report' });
  for (let round = 0; round < 40; round++) {
    await expect(ToolCallListeners.wrap(lookup, rethrowing).call(undefined)).resolves.toBe(answer);
    await expect(ToolCallListeners.wrap(broken, rethrowing).call(undefined)).rejects.toBe(failure);
    await expect(ToolCallListeners.wrap(broken, reporting).call(undefined)).resolves.toBe(
      "Tool 'broken' failed: upstream down",
    );
    // let the batch processor try exports between rounds
    if (round % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface FaultyEndpoint {
  readonly url: string;
  /** The exporter did reach the endpoint (so the fault was exercised). */
  sawExport(): boolean;
  close(): Promise<void>;
}
const faults: [string, () => Promise<FaultyEndpoint>][] = [
  [
    'refused (a port bound, then closed)',
    async () => ({ url: await closedEndpoint(), sawExport: () => true, close: async () => {} }),
  ],
  [
    'hanging (accepts, never answers)',
    async () => {
      const endpoint = await hangingEndpoint();
      return { ...endpoint, sawExport: () => endpoint.accepted() > 0 };
    },
  ],
  [
    'answering 500',
    async () => {
      const receiver = await startOtlpReceiver(500);
      return { ...receiver, sawExport: () => receiver.requests.length > 0 };
    },
  ],
];

describe('an OTLP endpoint that fails, through startToolCallTelemetry', () => {
  it.each(faults)(
    'endpoint %s: tool results and errors reach the caller unchanged and shutdown() returns',
    async (_name, start) => {
      const endpoint = await start();
      vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', endpoint.url);
      vi.stubEnv('OTEL_EXPORTER_OTLP_TIMEOUT', String(EXPORT_TIMEOUT_MS));
      // read by the SDK's env-aware BatchSpanProcessor; setup's current one ignores it and exports at shutdown
      vi.stubEnv('OTEL_BSP_SCHEDULE_DELAY', '10');
      try {
        // traces and metrics both go to the failing endpoint
        const telemetry = startToolCallTelemetry({ serviceName: 'export-faults', metrics: 'otlp' });
        await callThroughFailingExport();
        expect(await settlesWithin(telemetry.shutdown(), HANG_LIMIT_MS)).toBe('settled');
        expect(endpoint.sawExport()).toBe(true);
      } finally {
        await endpoint.close();
      }
    },
  );
});

describe('the batch span processor in front of a hanging endpoint', () => {
  it('caps its queue (memory stays bounded) and drops the excess instead of blocking the tools', async () => {
    const endpoint = await hangingEndpoint();
    const selfObservation = createTestTelemetry();
    const tracerProvider = new TracerProvider({
      spanProcessors: [
        new BatchSpanProcessor({
          exporter: new OTLPTraceExporter({ url: `${endpoint.url}/v1/traces`, timeoutMillis: EXPORT_TIMEOUT_MS }),
          maxQueueSize: 100,
          maxExportBatchSize: 50,
          scheduledDelayMillis: 10,
          // the SDK's own queue metrics (experimental option)
          selfObsMeterProvider: selfObservation.meterProvider,
        }),
      ],
    });
    const listener = new OpenTelemetryToolCallListener({ tracerProvider, errorPolicy: 'report' });
    const wrapped = ToolCallListeners.wrap(lookup, listener);
    try {
      for (let call = 0; call < 3_000; call++) {
        expect(await wrapped.call(undefined)).toBe(answer);
        // a real agent waits on I/O between calls: the processor's timer and the export get their turn
        if (call % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      const queue = await selfObservation.metric('otel.sdk.processor.span.queue.size');
      const processed = await selfObservation.counterPoints('otel.sdk.processor.span.processed');
      const queued = (queue?.dataPoints ?? []).map((point) => point.value as number);
      expect(queued.length).toBeGreaterThan(0);
      expect(Math.max(...queued)).toBeLessThanOrEqual(100);
      const dropped = processed.find((point) => point.attributes['error.type'] === 'queue_full')?.value ?? 0;
      expect(dropped).toBeGreaterThan(2_000);
      expect(endpoint.accepted()).toBeGreaterThan(0);
      expect(await settlesWithin(tracerProvider.shutdown(), HANG_LIMIT_MS)).toBe('settled');
    } finally {
      await selfObservation.shutdown();
      await endpoint.close();
    }
  });
});
