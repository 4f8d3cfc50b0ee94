import { generateText, stepCountIs, type ToolSet, tool } from 'ai';
import { wrapTools } from 'otel-tool-calls/ai-sdk';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordingListener } from '../../helpers/recording-listener.js';
import { toolCallThenText, toolResultsInPrompt } from './mock-model.js';

/** A tool as a class instance: a `#private` key, a prototype getter, a prototype `execute` and a counter. */
class Weather {
  readonly #apiKey: string;
  readonly inputSchema = z.object({ city: z.string() });
  calls = 0;

  constructor(apiKey: string) {
    this.#apiKey = apiKey;
  }

  get description(): string {
    return `Current weather (key ending ${this.#apiKey.slice(-2)})`;
  }

  async execute({ city }: { city: string }): Promise<string> {
    this.calls++;
    return `sunny in ${city} (call ${this.calls}, key ${this.#apiKey})`;
  }
}

/** The tools the model was offered in its first step: name and description. */
function offeredTools(model: ReturnType<typeof toolCallThenText>) {
  return (model.doGenerateCalls[0]?.tools ?? []).map((offered) => ({
    name: offered.name,
    description: 'description' in offered ? offered.description : undefined,
  }));
}

describe('wrapTools (AI SDK): observes the original tool, never a copy', () => {
  it('runs a tool class with a #private field, a prototype getter and a prototype execute, as the original', async () => {
    const { listener, kinds } = recordingListener();
    const weather = new Weather('key-42');
    const model = toolCallThenText({ toolName: 'weather', input: { city: 'Oslo' }, toolCallId: 'call-1' });

    await generateText({
      model,
      tools: wrapTools({ weather } as unknown as ToolSet, listener),
      stopWhen: stepCountIs(3),
      prompt: 'Weather in Oslo?',
    });

    expect(kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
    expect(offeredTools(model)).toEqual([{ name: 'weather', description: 'Current weather (key ending 42)' }]);
    expect(toolResultsInPrompt(model.doGenerateCalls[1]?.prompt ?? [])).toEqual([
      expect.objectContaining({ output: { type: 'text', value: 'sunny in Oslo (call 1, key key-42)' } }),
    ]);
    // state the tool set during the call is the original's
    expect(weather.calls).toBe(1);
  });

  it('keeps what a tool inherits and what it does not enumerate: a tool made with Object.create(defaults)', async () => {
    const { listener, kinds } = recordingListener();
    const defaults = { description: 'Looks a word up', inputSchema: z.object({ word: z.string() }) };
    const lookup = Object.create(defaults) as typeof defaults & { execute: (input: { word: string }) => string };
    Object.defineProperty(lookup, 'execute', { value: ({ word }: { word: string }) => `${word}: found` });
    const model = toolCallThenText({ toolName: 'lookup', input: { word: 'span' }, toolCallId: 'call-2' });

    const tools = wrapTools({ lookup } as unknown as ToolSet, listener);
    await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: 'Look up span' });

    expect(kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
    expect(offeredTools(model)).toEqual([{ name: 'lookup', description: 'Looks a word up' }]);
    expect(toolResultsInPrompt(model.doGenerateCalls[1]?.prompt ?? [])).toEqual([
      expect.objectContaining({ output: { type: 'text', value: 'span: found' } }),
    ]);
    expect(Object.getPrototypeOf(tools.lookup)).toBe(defaults);
    expect(Object.hasOwn(defaults, 'execute')).toBe(false);
  });

  it('observes a frozen tool', async () => {
    const { listener, kinds } = recordingListener();
    const frozen = Object.freeze(
      tool({ inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => `sunny in ${city}` }),
    );
    const model = toolCallThenText({ toolName: 'frozen', input: { city: 'Rome' }, toolCallId: 'call-3' });

    await generateText({ model, tools: wrapTools({ frozen }, listener), stopWhen: stepCountIs(3), prompt: 'Rome?' });

    expect(kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
    expect(toolResultsInPrompt(model.doGenerateCalls[1]?.prompt ?? [])).toEqual([
      expect.objectContaining({ output: { type: 'text', value: 'sunny in Rome' } }),
    ]);
  });
});
