import { trace } from '@opentelemetry/api';
import { SwitchableTracerProvider } from '../../../src/register/switchable-providers.js';

/**
 * ADK gets its tracer when it loads (`trace.getTracer('gcp.vertex.agent')`), from its own copy of
 * `@opentelemetry/api` (it pins 1.9.0; a copy of another version is nested under it): a tracer that
 * follows the global provider only if one is registered before ADK loads, as an app does when it
 * starts its SDK first. So the test files register a global provider before they import ADK (only
 * dynamically, after this), one that follows each test's SDK (`useTracerProvider`).
 */
const global = new SwitchableTracerProvider(trace.getTracerProvider());
if (!trace.setGlobalTracerProvider(global)) throw new Error('a global tracer provider was registered before ADK tests');

export function useTracerProvider(provider: Parameters<SwitchableTracerProvider['switchTo']>[0]): void {
  global.switchTo(provider);
}
