import { Agent, type AgentTool } from '@mariozechner/pi-agent-core';
import { Type } from '@mariozechner/pi-ai';
import type { ToolCallListener } from 'otel-tool-calls';
import { instrumentAgent, wrapTool, wrapTools } from 'otel-tool-calls/pi-agent-core';
import { describe, expectTypeOf, it } from 'vitest';

declare const listener: ToolCallListener<string>;

const parameters = Type.Object({ city: Type.String() });
const weather: AgentTool<typeof parameters, { city: string }> = {
  name: 'get_weather',
  label: 'Weather',
  description: 'Weather of a city',
  parameters,
  execute: async (_id, { city }) => ({ content: [{ type: 'text', text: `rain in ${city}` }], details: { city } }),
};

describe('otel-tool-calls/pi-agent-core types', () => {
  it('instrumentAgent returns the agent as its own type', () => {
    expectTypeOf(instrumentAgent(new Agent(), listener)).toEqualTypeOf<Agent>();
  });

  it('wrapTools keeps each AgentTool type, as a mutable tuple the agent state accepts', () => {
    expectTypeOf(wrapTools([weather], listener)).toEqualTypeOf<[typeof weather]>();
    const list: Agent['state']['tools'] = [weather];
    expectTypeOf(wrapTools(list, listener)).toEqualTypeOf<Agent['state']['tools']>();
    expectTypeOf(wrapTool(weather, listener)).toEqualTypeOf<typeof weather>();
    new Agent({ initialState: { tools: wrapTools([weather], listener) } });
  });
});
