import { OpenRouter as AgentClient, callModel as agentCallModel, tool as agentTool } from '@openrouter/agent';
import { OpenRouter as SdkClient } from '@openrouter/sdk';
import { tool as sdkTool } from '@openrouter/sdk/lib/tool.js';

/**
 * The ways an app runs `callModel`, each against the fake Responses API at `serverURL`: the function
 * of `@openrouter/agent` with its client, its client's method, and `@openrouter/sdk` 1.x's client
 * method; each with its package's own `tool()`.
 */
export const ROUTES = [
  {
    name: '@openrouter/agent callModel(client, request)',
    tool: agentTool as (config: never) => unknown,
    callModel: (serverURL: string, request: Record<string, unknown>) =>
      agentCallModel(new AgentClient({ apiKey: 'test-key', serverURL }), request as never),
  },
  {
    name: '@openrouter/agent client.callModel(request)',
    tool: agentTool as (config: never) => unknown,
    callModel: (serverURL: string, request: Record<string, unknown>) =>
      new AgentClient({ apiKey: 'test-key', serverURL }).callModel(request as never),
  },
  {
    name: '@openrouter/sdk client.callModel(request)',
    tool: sdkTool as (config: never) => unknown,
    callModel: (serverURL: string, request: Record<string, unknown>) =>
      new SdkClient({ apiKey: 'test-key', serverURL }).callModel(request as never),
  },
] as const;

export type Route = (typeof ROUTES)[number];

/** What a ModelResult of either package offers the tests. */
export interface ModelResultLike {
  getText(): Promise<string>;
}
