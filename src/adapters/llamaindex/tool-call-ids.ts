import { type CallbackManager, Settings } from '@llamaindex/core/global';

/*
 * LlamaIndex passes a tool nothing but its input: the model's id for the call is only in the
 * `llm-tool-call` event that `callTool` (`@llamaindex/core/agent`, which the workflow agents use
 * too) dispatches just before it calls the tool. The callback manager hands events to their
 * handlers in a microtask queued by that dispatch, so an observed call that waits one microtask
 * finds the id here, keyed by the very input object the event carries and the tool receives.
 */
const idsByInput = new WeakMap<object, string>();
const listenedTo = new WeakSet<CallbackManager>();

function rememberToolCallId(event: { readonly detail?: unknown }): void {
  try {
    const toolCall = (event.detail as { toolCall?: { input?: unknown; id?: unknown } } | undefined)?.toolCall;
    const input = toolCall?.input;
    if (input !== null && typeof input === 'object' && typeof toolCall?.id === 'string') {
      idsByInput.set(input, toolCall.id);
    }
  } catch {
    // an event of another shape says nothing about a call id
  }
}

/**
 * Listens for `llm-tool-call` on the callback manager in effect here (the global one, or the one
 * of `Settings.withCallbackManager`), once per manager. The manager decides at dispatch whether
 * there is a handler, so this runs when the tools are wrapped and again at each call (for the
 * calls after it, under a manager first seen then).
 */
export function listenForToolCallIds(): void {
  try {
    const manager = Settings.callbackManager;
    if (listenedTo.has(manager)) return;
    listenedTo.add(manager);
    manager.on('llm-tool-call', rememberToolCallId);
  } catch {
    // no callback manager: calls are observed without their id
  }
}

/** The call id announced for `input`, taken (each input is one call); `undefined` when none was. */
export function takeToolCallId(input: unknown): string | undefined {
  if (input === null || typeof input !== 'object') return undefined;
  const id = idsByInput.get(input);
  if (id !== undefined) idsByInput.delete(input);
  return id;
}
