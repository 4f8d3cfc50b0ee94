import type { Span, TimeInput } from '@opentelemetry/api';

// read once: on Node 20, `performance` is a lazy getter of the global object
const clock = globalThis.performance;

/**
 * Holds back the end of Genkit's tool action span until the listener has recorded the call's
 * outcome on it. Genkit ends its span (in its `runInNewSpan`'s `finally`) before the action's
 * promise settles, and so before its middleware, which the listener observes the call from, learns
 * how the call went: without the hold, `error.type`, `tool_call.error.outcome` and a captured result
 * would be written to an ended span, and lost. Genkit's `end()` is noted, with its time (the span
 * ends when Genkit ended it), and carried out by the returned `release`, which puts the span's own
 * `end` back. A span that takes no property is left as it is.
 */
export function holdSpanEnd(span: Span | undefined): () => void {
  if (span === undefined) return () => {};
  let endedAt: TimeInput | undefined;
  let end: Span['end'];
  try {
    if (!span.isRecording()) return () => {};
    end = span.end;
    const held = function heldEnd(endTime?: TimeInput): void {
      endedAt ??= endTime ?? clock.now();
    };
    if (!Reflect.defineProperty(span, 'end', { value: held, writable: true, configurable: true })) return () => {};
  } catch {
    return () => {};
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    try {
      // an own property again, the original: a `delete` would turn the span's object slow
      Reflect.defineProperty(span, 'end', { value: end, writable: true, configurable: true });
      if (endedAt !== undefined) end.call(span, endedAt);
    } catch {
      // a span processor whose onEnd throws: as it would have thrown into Genkit
    }
  };
}
