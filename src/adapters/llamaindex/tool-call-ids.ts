import { type CallbackManager, Settings } from '@llamaindex/core/global';

/*
 * LlamaIndex passes a tool nothing but its input: the model's id for the call is only in the
 * `llm-tool-call` event that `callTool` (`@llamaindex/core/agent`, which the workflow agents use
 * too) dispatches just before it calls the tool. The callback manager hands events to their
 * handlers in a microtask queued by that dispatch, after the tool has started; so the id is read
 * from the dispatch itself (the manager's `dispatchEvent`, observed on the manager), synchronously,
 * keyed by the very input object the event carries and the tool receives. A synchronous tool then
 * stays synchronous, and still has its call's id.
 */
const idsByInput = new WeakMap<object, string>();
const observedManagers = new WeakSet<CallbackManager>();

type DispatchEvent = (this: unknown, event: unknown, detail: unknown, ...rest: unknown[]) => unknown;

function rememberToolCallId(detail: unknown): void {
  try {
    const toolCall = (detail as { toolCall?: { input?: unknown; id?: unknown } } | undefined)?.toolCall;
    const input = toolCall?.input;
    if (input !== null && typeof input === 'object' && typeof toolCall?.id === 'string') {
      idsByInput.set(input, toolCall.id);
    }
  } catch {
    // a detail of another shape says nothing about a call id
  }
}

/**
 * Observes the dispatches of the callback manager in effect here (the global one, or the one of
 * `Settings.withCallbackManager`), once per manager: its `dispatchEvent` is replaced on the manager
 * itself (LlamaIndex reads it there at each dispatch; no stand-in can be handed to it) by one that
 * notes a call's id and dispatches as before. It runs when the tools are wrapped and again at each
 * call (for the calls after it, under a manager first seen then).
 */
export function listenForToolCallIds(): void {
  try {
    const manager = Settings.callbackManager;
    if (observedManagers.has(manager)) return;
    observedManagers.add(manager);
    const dispatch = manager.dispatchEvent as unknown;
    if (typeof dispatch !== 'function') return;
    const observed: DispatchEvent = function dispatchEvent(this: unknown, event, detail, ...rest) {
      if (event === 'llm-tool-call') rememberToolCallId(detail);
      return Reflect.apply(dispatch, this, [event, detail, ...rest]);
    };
    Object.defineProperty(manager, 'dispatchEvent', { value: observed, writable: true, configurable: true });
  } catch {
    // no callback manager, or one that takes no property: calls are observed without their id
  }
}

/** The call id announced for `input`, taken (each input is one call); `undefined` when none was. */
export function takeToolCallId(input: unknown): string | undefined {
  if (input === null || typeof input !== 'object') return undefined;
  const id = idsByInput.get(input);
  if (id !== undefined) idsByInput.delete(input);
  return id;
}
