/**
 * `otel-tool-calls/genkit`: observe the tool calls of Genkit 1.x (`ai.generate({ tools, use })`)
 * through its generate middleware's `tool` hook, in Genkit's own tool action span.
 *
 * @module
 */
export { toolCallsMiddleware } from './tool-calls-middleware.js';
