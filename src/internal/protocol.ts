/*
 * The keys shared between copies of this package in one process (its ESM and CommonJS builds, the
 * adapters' bundles and the root's, two versions): registered symbols (`Symbol.for`), which every
 * copy resolves to the same value. Each is declared here, once, with who owns it (writes it), who
 * reads it, what it holds and when it goes away. A key's string is its contract with every copy
 * already shipped: change what a key holds and it takes a new string (and PROTOCOL_VERSION moves).
 * Not public API.
 */

/** Moves when a key's string or meaning changes (a copy reading an older key would misread it). */
export const PROTOCOL_VERSION = 2;

/**
 * Owner: the adapters (markObserved). Readers: the zero-code instrumentation, which leaves a marked
 * tool alone. Value: `true`, non-enumerable, on an observed tool function or MCP client/server.
 * Cleanup: never (it lives as long as the function).
 */
export const OBSERVED_KEY = Symbol.for('otel-tool-calls.observed');

/**
 * Owner: an adapter that learns of a rejection only when the call failed (markRejection). Readers:
 * the decorator, which copies it to `ToolCallInfo.rejection`. Value: a `ToolCallRejection`,
 * non-enumerable, on the error. Cleanup: with the error.
 */
export const REJECTION_KEY = Symbol.for('otel-tool-calls.rejection');

/**
 * Owner: the decorator (recordFailureOutcome). Readers: listeners of older copies (this copy's read
 * `ToolCallInfo.failureOutcome`). Value: `'reported' | 'rethrown'`, non-enumerable, on the call's
 * `ToolCallInfo`. Cleanup: with the call info.
 */
export const FAILURE_OUTCOME_KEY = Symbol.for('otel-tool-calls.failure-outcome');

/**
 * Owner: the OpenTelemetry listener. Readers: the decorator (idleCall), before a call starts. Value:
 * a method answering what the call needs (`'only-errors' | 'nothing' | undefined`). Cleanup: never.
 */
export const IDLE_CALL_KEY = Symbol.for('otel-tool-calls.idle-call');

/**
 * Owner: the OpenTelemetry listener, when `recordDecisions` is false. Readers: the adapters that stand
 * in for a framework's approval hook only to tell decisions (takes-decisions.ts), before they do.
 * Value: `true`, non-enumerable, read-only, on the listener: its `onDecision` does nothing. Cleanup: never.
 */
export const IGNORES_DECISIONS_KEY = Symbol.for('otel-tool-calls.ignores-decisions');

/**
 * Owner: the OpenTelemetry listener. Readers: the protocol adapters (MCP), for the operations that
 * are not tool calls. Value: its `OperationTelemetry`, non-enumerable, read-only. Cleanup: never.
 */
export const OPERATION_TELEMETRY_KEY = Symbol.for('otel-tool-calls.operation-telemetry');

/**
 * Owner: the composite listener. Readers: the protocol adapters, looking for an OpenTelemetry
 * listener inside it. Value: the array of its parts, non-enumerable, read-only. Cleanup: never.
 */
export const COMPOSED_LISTENERS_KEY = Symbol.for('otel-tool-calls.composed-listeners');

/**
 * Owner and reader: the OpenTelemetry listener (outer-tool-call.ts). Value: the call open on a span
 * (what a nested call joins), on the span object. Cleanup: set to `undefined` when the call ends.
 */
export const OPEN_CALL_KEY = Symbol.for('otel-tool-calls.open-tool-call');

/**
 * Owner and reader: the OpenTelemetry listener (outer-tool-call.ts). Value: the open call, in the
 * OpenTelemetry context of a call without a span (`createContextKey` takes the description).
 * Cleanup: with the context.
 */
export const OPEN_CALL_IN_CONTEXT_DESCRIPTION = 'otel-tool-calls.open-tool-call';

/**
 * Owner and reader: the OpenTelemetry listener (outer-tool-call.ts). Value: on `globalThis`, a
 * `Map<key, { span, call }[]>` of the calls open under a `ToolCallInfo.correlation` key. Cleanup:
 * an entry leaves when its call ends. (Not the key of the versions that kept one call per key: an
 * older copy would misread a list.)
 */
export const CALLS_BY_CORRELATION_KEY = Symbol.for('otel-tool-calls.open-calls-by-tool-use-id');

/**
 * Owner and reader: the protocol adapters and the OpenTelemetry listener (open-sessions.ts). Value:
 * on `globalThis`, a `Set<WeakRef<() => void>>` of the sessions open. Cleanup: a session leaves when
 * it ends, or when it is collected.
 */
export const OPEN_SESSIONS_KEY = Symbol.for('otel-tool-calls.open-sessions');

/**
 * Owner and reader: the MCP adapter (http-peer.ts). Value: the HTTP peer (address, port, protocol
 * version) of the request a server-side MCP message came in, in its OpenTelemetry context
 * (`createContextKey` takes the description). Cleanup: with the context.
 */
export const MCP_HTTP_PEER_DESCRIPTION = 'otel-tool-calls MCP HTTP peer';

/**
 * Owner and reader: the zero-code instrumentation's loader hook (esm-loader-hook.ts). Value: on
 * `globalThis`, `true` once the hook is registered in the process. Cleanup: never.
 */
export const ESM_LOADER_HOOK_KEY = Symbol.for('otel-tool-calls.esm-loader-hook');

/** Marks `target` as holding `value` under `key`, out of sight (non-enumerable, not on its type). */
export function keepHidden(target: object, key: symbol, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: false, configurable: false, writable: false });
}
