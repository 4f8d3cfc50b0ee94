import { functionToolCallback, type ToolCallback, type ToolContext, type ToolDefinition } from 'otel-tool-calls';

/** The input every call gets (the capture cases pass bigger ones). */
export interface WeatherInput {
  readonly city: string;
  readonly notes?: unknown;
}

/** A definition with a description, so the span gets the `gen_ai.tool.description` attribute too. */
export const WEATHER_TOOL: ToolDefinition = Object.freeze({
  name: 'get_weather',
  description: 'Current weather for a city',
});

export const INPUT: WeatherInput = Object.freeze({ city: 'Lisbon' });

/** What an adapter passes along with a call: every case gets the same one, the bare tool too. */
export const TOOL_CONTEXT: ToolContext = Object.freeze({ toolCallId: 'call_0001' });

/**
 * The tools do almost nothing on purpose: what is measured is the cost around the call. The async one
 * settles on the microtask queue, so with N calls started before any settles, N calls are in flight.
 */
export function asyncWeatherTool(): ToolCallback<WeatherInput, Promise<number>> {
  return functionToolCallback(WEATHER_TOOL, async (input: WeatherInput) => input.city.length);
}

export function syncWeatherTool(): ToolCallback<WeatherInput, number> {
  return functionToolCallback(WEATHER_TOOL, (input: WeatherInput) => input.city.length);
}

/** The value every call of the tools above returns: each batch checks it, so nothing is optimized away. */
export const EXPECTED_RESULT = INPUT.city.length;
