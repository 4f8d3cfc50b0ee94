import { describe, expect, it } from 'vitest';
import { functionToolCallback, type ToolCallInfo, type ToolCallListener, ToolCallListeners } from '../src/index.js';
import { markRejection } from '../src/internal/rejection-mark.js';

/** A user's own listener: what it sees of each call in afterCompletion. */
function recorder(onError: () => string | null | undefined) {
  const seen: { failureOutcome?: string; rejectionInOnError?: string }[] = [];
  const listener: ToolCallListener<{ rejectionInOnError?: string }> = {
    beforeCall: () => ({}),
    onError: (context, _name, _input, _error, call) => {
      context.rejectionInOnError = call.rejection;
      return onError();
    },
    afterCompletion: (context, _name, _input, call: ToolCallInfo) => {
      seen.push({ failureOutcome: call.failureOutcome, rejectionInOnError: context.rejectionInOnError });
    },
  };
  return { listener, seen };
}

const failing = (error: unknown = new Error('down')) =>
  functionToolCallback({ name: 'weather' }, async () => {
    throw error;
  });

describe('the facts the decorator sets on ToolCallInfo, for any listener', () => {
  it("a user's listener reads failureOutcome: what the caller got, not what its onError wished", async () => {
    const own = recorder(() => null); // wishes a rethrow
    const reporting: ToolCallListener = { onError: () => 'reported to the model' };
    const tool = ToolCallListeners.wrap(failing(), ToolCallListeners.composite(own.listener, reporting));

    await expect(tool.call({})).resolves.toBe('reported to the model');
    expect(own.seen).toEqual([{ failureOutcome: 'reported', rejectionInOnError: undefined }]);
  });

  it('failureOutcome is rethrown when onError throws, and absent for a success', async () => {
    const own = recorder(() => {
      throw new Error('onError failed');
    });
    await expect(ToolCallListeners.wrap(failing(), own.listener).call({})).rejects.toThrow('onError failed');
    const ok = recorder(() => null);
    await ToolCallListeners.wrap(
      functionToolCallback({ name: 'weather' }, async () => 'sunny'),
      ok.listener,
    ).call({});

    expect(own.seen[0]?.failureOutcome).toBe('rethrown');
    expect(ok.seen[0]?.failureOutcome).toBeUndefined();
  });

  it("a user's listener reads in onError a rejection the adapter learnt only from the failure", async () => {
    const own = recorder(() => null);
    const rejected = markRejection(new TypeError('arguments do not match the schema'), 'invalid_input');

    await expect(ToolCallListeners.wrap(failing(rejected), own.listener).call({})).rejects.toBe(rejected);
    expect(own.seen).toEqual([{ failureOutcome: 'rethrown', rejectionInOnError: 'invalid_input' }]);
  });

  it('the facts are read-only for listeners', async () => {
    let info: ToolCallInfo | undefined;
    const tool = ToolCallListeners.wrap(failing(), {
      afterCompletion: (_context, _name, _input, call) => {
        info = call;
      },
    });
    await expect(tool.call({})).rejects.toThrow('down');
    expect(() => {
      (info as { failureOutcome?: string }).failureOutcome = 'reported';
    }).toThrow(TypeError);
  });
});
