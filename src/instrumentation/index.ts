/**
 * `otel-tool-calls/instrumentation`: `ToolCallsInstrumentation`, an OpenTelemetry instrumentation
 * (`InstrumentationBase`) for `new NodeSDK({ instrumentations })` or `registerInstrumentations`.
 * Needs `@opentelemetry/instrumentation`; loads no framework until the app does.
 *
 * @module
 */
export { ToolCallsInstrumentation } from './tool-calls-instrumentation.js';
export type { ToolCallsInstrumentationConfig } from './types.js';
