/**
 * `otel-tool-calls/bedrock-agent-runtime`: observe the calls a Bedrock agent returns to the app to run
 * (return of control: `InvokeAgent`, `InvokeInlineAgent` of `@aws-sdk/client-bedrock-agent-runtime`).
 * Only types are imported from the SDK: this module loads nothing of it.
 *
 * @module
 */
export { instrumentClient } from './instrument-client.js';
export { ReturnControlFailureError, ReturnControlUnansweredError, UNANSWERED_AFTER_MS } from './open-calls.js';
