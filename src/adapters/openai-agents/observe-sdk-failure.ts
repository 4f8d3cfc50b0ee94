import { getCurrentSpan, getCurrentTrace, withTraceContext } from '@openai/agents';
import type { SdkToolFailure } from './function-tool-error.js';

type TraceContext = NonNullable<Parameters<typeof withTraceContext>[0]>;
type SdkSpan = NonNullable<TraceContext['span']>;

/**
 * Runs `invoke` so that a failure the SDK turns into tool output is still seen.
 *
 * `tool()` keeps `execute` and `errorFunction` in a closure: when `execute` throws, `invoke`
 * resolves to the errorFunction's text and the thrown value is gone. The one signal the SDK gives
 * on that path is `getCurrentSpan()?.setError(...)` on its tracing span, made right before it
 * calls the errorFunction (whether tracing is enabled or not). So `invoke` runs with a probe as
 * the current span: it records `setError` and forwards every property and call to the span that
 * was current (the runner's function span), so the SDK's own traces are unchanged.
 */
export async function observeSdkFailure<T>(
  invoke: () => Promise<T>,
): Promise<{ readonly output: T; readonly failure?: SdkToolFailure; readonly failed: boolean }> {
  let failed = false;
  let failure: SdkToolFailure | undefined;
  const record = (error: unknown) => {
    failed = true;
    failure = error !== null && typeof error === 'object' ? (error as SdkToolFailure) : undefined;
  };
  // span and trace read apart: an outer wrapper's probe is a current span without a trace
  const span = getCurrentSpan();
  const probe = span ? forwardingProbe(span, record) : standaloneProbe(record);
  const output = await withTraceContext({ trace: getCurrentTrace(), span: probe } as TraceContext, invoke);
  return { output, failure, failed };
}

function forwardingProbe(span: SdkSpan, record: (error: unknown) => void): SdkSpan {
  return new Proxy(span, {
    get(target, key) {
      if (key === 'setError') {
        return (error: Parameters<SdkSpan['setError']>[0]) => {
          record(error);
          target.setError(error);
        };
      }
      // read with the span itself as receiver: its getters use private fields
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set: (target, key, value) => Reflect.set(target, key, value),
  });
}

/** Outside a trace there is no span to forward to: a span-shaped object with no id. */
function standaloneProbe(record: (error: unknown) => void): SdkSpan {
  return { setError: record, previousSpan: undefined } as unknown as SdkSpan;
}
