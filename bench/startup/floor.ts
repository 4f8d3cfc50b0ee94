/**
 * The lean floor of the startup group, as a preload (`node --import`): the least an app could start
 * by hand for what register's default configuration does: the trace and metrics SDKs, the two
 * OTLP/protobuf exporters, the context manager, the propagator, ToolCallsInstrumentation (with its
 * ESM hook, installed as register installs it on this runtime: in-thread where Node can, the hooks
 * thread of `module.register()` otherwise), and a flush at exit. No environment handling, no
 * resource detection, no logs. Imported, as an app would, the SDK packages load their ES module
 * builds (register requires their CommonJS builds), all before the loader hook is installed (static
 * imports load before the module's body runs), as register's load before it installs its own.
 */
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ESM_HOOKED_FILES } from '../../src/instrumentation/hooked-files.js';
import { ToolCallsInstrumentation } from '../../src/instrumentation/tool-calls-instrumentation.js';
import { registerEsmHooks } from '../../src/register/esm-hooks.js';

registerEsmHooks(ESM_HOOKED_FILES, import.meta.url);
const resource = resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME ?? 'unknown_service' });
const contextManager = new AsyncLocalStorageContextManager();
contextManager.enable();
context.setGlobalContextManager(contextManager);
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
const tracerProvider = new TracerProvider({
  resource,
  spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
});
trace.setGlobalTracerProvider(tracerProvider);
const meterProvider = new MeterProvider({
  resource,
  readers: [new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter() })],
});
metrics.setGlobalMeterProvider(meterProvider);
registerInstrumentations({ instrumentations: [new ToolCallsInstrumentation()] });
process.once('beforeExit', () => {
  void Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
});
