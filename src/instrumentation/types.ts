import type { InstrumentationConfig } from '@opentelemetry/instrumentation';
import type { OpenTelemetryToolCallListenerOptions } from '../otel/types.js';

/**
 * The options of `ToolCallsInstrumentation`: `enabled`, and the options of
 * `OpenTelemetryToolCallListener` (error policy `'rethrow'` by default, so that an app behaves
 * exactly as without it). `tracerProvider` and `meterProvider` default to the ones the SDK (or
 * `registerInstrumentations`) hands the instrumentation.
 */
export interface ToolCallsInstrumentationConfig extends InstrumentationConfig, OpenTelemetryToolCallListenerOptions {}
