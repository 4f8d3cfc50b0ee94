/**
 * `otel-tool-calls/openrouter`: observe the tool calls `callModel` runs itself (`@openrouter/agent`,
 * and `@openrouter/sdk` 1.x where `callModel` was first). Only types are imported from the packages:
 * this module loads nothing of them.
 *
 * @module
 */
export { UnknownToolError } from './bad-calls.js';
export { instrumentModelResult } from './instrument-model-result.js';
