type Method = (this: unknown, ...args: unknown[]) => unknown;

/** What ends a query besides its messages' end: the app closing it, or leaving its `for await`. */
const CLOSING = ['return', 'throw', 'close', Symbol.asyncDispose] as const;

/**
 * Calls `end` once, when `query` (what the SDK's `query()` returns: an async generator of messages
 * with `close()`) is over: its messages end or fail (an aborted query, a denial that interrupts
 * it), or the app closes it (`return`, `throw`, `close()`, `await using`, a `for await` left early).
 * The SDK's `Symbol.asyncIterator` hands `for await` another generator than the query itself: that
 * one is observed too. Observed in place: each method is patched on the instance and calls the
 * original with the original `this`; what it returns is returned as it is (its settlement only
 * watched). A query that cannot be patched (frozen) is not observed.
 */
export function onQueryEnd(query: unknown, end: () => void): void {
  if (query === null || typeof query !== 'object') return;
  let ended = false;
  const endOnce = () => {
    if (ended) return;
    ended = true;
    end();
  };
  observeEnd(query, endOnce);
  const iterate = (query as Record<symbol, unknown>)[Symbol.asyncIterator];
  if (typeof iterate !== 'function') return;
  patch(query, Symbol.asyncIterator, function iterator(this: unknown, ...args: unknown[]) {
    const messages = (iterate as Method).apply(this, args);
    if (messages !== query && messages !== null && typeof messages === 'object') observeEnd(messages, endOnce);
    return messages;
  });
}

/** `next` that ends (done, or failed), and every closing method once it has settled. */
function observeEnd(target: object, end: () => void): void {
  const next = (target as Record<string, unknown>).next;
  if (typeof next === 'function') {
    patch(target, 'next', function observedNext(this: unknown, ...args: unknown[]) {
      const result = (next as Method).apply(this, args);
      afterSettled(
        result,
        (value) => {
          if ((value as { done?: unknown } | undefined)?.done === true) end();
        },
        end,
      );
      return result;
    });
  }
  for (const key of CLOSING) {
    const close = (target as Record<string | symbol, unknown>)[key];
    if (typeof close !== 'function') continue;
    patch(target, key, function observedClose(this: unknown, ...args: unknown[]) {
      try {
        const result = (close as Method).apply(this, args);
        afterSettled(result, end, end);
        return result;
      } catch (error) {
        end();
        throw error;
      }
    });
  }
}

/** Runs `settled` or `failed` once `result` settles (at once for a value that is not a promise); `result` is left as it is. */
function afterSettled(result: unknown, settled: (value: unknown) => void, failed: () => void): void {
  if (result === null || (typeof result !== 'object' && typeof result !== 'function')) {
    settled(result);
    return;
  }
  const then = (result as { then?: unknown }).then;
  if (typeof then !== 'function') settled(result);
  else (then as Method).call(result, settled, failed);
}

function patch(target: object, key: string | symbol, method: Method): void {
  try {
    Object.defineProperty(target, key, { value: method, configurable: true, writable: true, enumerable: false });
  } catch {
    // a frozen query: its end is not seen, its calls end with the session
  }
}
