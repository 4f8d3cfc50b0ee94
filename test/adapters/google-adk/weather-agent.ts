import { FunctionTool, InMemoryRunner, LlmAgent } from '@google/adk';
import { z } from 'zod';
import { ScriptedModel } from './scripted-model.js';

type Plugins = ConstructorParameters<typeof InMemoryRunner>[0]['plugins'];

/** ADK's `weather` tool: a forecast for a city, a RangeError for Atlantis. */
export const weather = () =>
  new FunctionTool({
    name: 'weather',
    description: 'Current weather of a city',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      if (city === 'Atlantis') throw new RangeError('no such city');
      return { forecast: `sunny in ${city}` };
    },
  });

/** The model calls `weather` for Paris (`call-1`), then for Atlantis (`call-2`), then answers. */
const twoCalls = [
  { calls: [{ id: 'call-1', name: 'weather', args: { city: 'Paris' } }] },
  { calls: [{ id: 'call-2', name: 'weather', args: { city: 'Atlantis' } }] },
  'done',
];

/**
 * One run of an agent with `tool` on the scripted model (the two calls above), through the runner and
 * `plugins`: the model, whose requests keep what it read. With `sessionId`, in that session (created
 * first); else in an ephemeral one.
 */
export async function runAgent(tool: FunctionTool, plugins: Plugins, sessionId?: string): Promise<ScriptedModel> {
  const model = new ScriptedModel(twoCalls);
  const agent = new LlmAgent({ name: 'assistant', model, instruction: 'Answer.', tools: [tool] });
  const runner = new InMemoryRunner({ agent, appName: 'test', plugins });
  const newMessage = { role: 'user', parts: [{ text: 'hi' }] };
  if (sessionId !== undefined) await runner.sessionService.createSession({ appName: 'test', userId: 'u', sessionId });
  const events =
    sessionId === undefined
      ? runner.runEphemeral({ userId: 'u', newMessage })
      : runner.runAsync({ userId: 'u', sessionId, newMessage });
  for await (const _event of events) {
    // the run's events: what the model reads is in its requests
  }
  return model;
}
