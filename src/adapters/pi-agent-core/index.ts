/**
 * `otel-tool-calls/pi-agent-core`: observe the tool calls of pi's agent loop
 * (`@mariozechner/pi-agent-core`: an `Agent`, or the loop functions with `AgentTool`s; the loop
 * `pi-coding-agent` runs). Nothing of pi is imported: this module loads nothing of it.
 *
 * @module
 */
export { InvalidToolArgumentsError, ToolNotFoundError } from './bad-calls.js';
export { instrumentAgent } from './instrument-agent.js';
export { wrapTool, wrapTools } from './wrap-tools.js';
