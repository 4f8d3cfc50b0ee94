import { context, ROOT_CONTEXT, TraceFlags, trace } from '@opentelemetry/api';
import { OpenTelemetryToolCallListener, ToolCallListeners, type ToolContext } from 'otel-tool-calls';
import type { Callable } from './floor.js';
import type { BenchCase } from './measure.js';
import type { Comparison } from './paired.js';
import { signalsFloorTool } from './signals-floor.js';
import { SIGNALS_OFF } from './signals-off.js';
import { asyncWeatherTool, type WeatherInput } from './tools.js';

/** One trace for every call of a case: a parent span context (valid, sampled) that no span ends. */
const ONE_TRACE = trace.setSpanContext(ROOT_CONTEXT, {
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  spanId: '00f067aa0ba902b7',
  traceFlags: TraceFlags.SAMPLED,
});

let traces = 0;

/**
 * Each call in a trace of its own, under a parent span as in an app (an agent step, a request): the
 * repeat table remembers a new trace at each call. (A call with no parent starts its trace and is
 * not remembered: nothing could repeat it but a call nested in it.)
 */
function inNewTrace(callable: Callable<WeatherInput, unknown>): Callable<WeatherInput, unknown> {
  return {
    call: (toolInput: WeatherInput, toolContext?: ToolContext) => {
      traces++;
      const parent = trace.setSpanContext(ROOT_CONTEXT, {
        traceId: traces.toString(16).padStart(32, '0'),
        spanId: '00f067aa0ba902b7',
        traceFlags: TraceFlags.SAMPLED,
      });
      return context.with(parent, () => callable.call(toolInput, toolContext));
    },
  };
}

/** Every call in one trace: the same tool with the same small arguments called again and again. */
function inOneTrace(callable: Callable<WeatherInput, unknown>): Callable<WeatherInput, unknown> {
  return {
    call: (toolInput: WeatherInput, toolContext?: ToolContext) =>
      context.with(ONE_TRACE, () => callable.call(toolInput, toolContext)),
  };
}

/**
 * The listener with the signals on (its default) and off, and off around the signals' floor (the same
 * signals recorded by hand, bench/lib/signals-floor.ts), real SDK, async tool, small arguments and
 * result: each call in a trace of its own (a tool called once per trace: the repeat table gets a
 * new trace each call), and every call in one trace (each a repeat: its arguments serialized and looked up,
 * the repeat counted).
 */
export function signalCases(): BenchCase[] {
  const row = (kind: string, label: string, callable: Callable<WeatherInput, unknown>): BenchCase => ({
    id: `sdk/async/${kind}/x1`,
    process: 'sdk',
    group: 'signals',
    world: 'sdk',
    tool: 'async',
    kind,
    label,
    inFlight: 1,
    callable,
  });
  const wrapped = (options?: typeof SIGNALS_OFF) =>
    ToolCallListeners.wrap(asyncWeatherTool(), new OpenTelemetryToolCallListener(options));
  const floor = () => ToolCallListeners.wrap(signalsFloorTool(), new OpenTelemetryToolCallListener(SIGNALS_OFF));
  return [
    row('signals-off', 'listener, repeats and result size off, a trace per call', inNewTrace(wrapped(SIGNALS_OFF))),
    row('signals-on', 'listener, repeats and result size on (default), a trace per call', inNewTrace(wrapped())),
    row('signals-off-repeated', 'listener, signals off, every call in one trace', inOneTrace(wrapped(SIGNALS_OFF))),
    row('signals-on-repeated', 'listener, signals on, every call in one trace (each a repeat)', inOneTrace(wrapped())),
    row('signals-floor', 'listener, signals off, the signals recorded by hand, a trace per call', inNewTrace(floor())),
    row('signals-floor-repeated', 'the same, every call in one trace', inOneTrace(floor())),
  ];
}

/**
 * The signals' cost: on against off, once per trace and repeated (issue 40: ≤ 1.10×); on against
 * their floor (the same signals by hand: what the listener adds to the SDK's own cost of them).
 */
export function signalComparisons(): Comparison[] {
  const versus = (subject: string, reference: string): Comparison => ({
    id: `sdk/async/${subject}-vs-${reference}/x1`,
    subject: `sdk/async/${subject}/x1`,
    reference: `sdk/async/${reference}/x1`,
  });
  return [
    versus('signals-on', 'signals-off'),
    versus('signals-on-repeated', 'signals-off-repeated'),
    versus('signals-on', 'signals-floor'),
    versus('signals-on-repeated', 'signals-floor-repeated'),
  ];
}
