import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = new URL('../..', import.meta.url).pathname;

describe('examples/pi-agent-core', () => {
  it("the agent gets the model's answer; each call is one span with its id and the session, the failure reported, the unknown tool the model's", async () => {
    const { stdout } = await run('npx', ['tsx', 'examples/pi-agent-core/main.ts'], { cwd: repoRoot });
    expect(stdout.trimEnd().split('\n')).toEqual([
      'tool result call_1: rain in Oslo',
      "tool result call_2 (error): Tool 'get_weather' failed: no weather station in Atlantis",
      "tool result call_3 (error): Tool 'get_forecast' failed: Tool get_forecast not found",
      'model: Rain in Oslo; Atlantis is not on the map.',
      'span: execute_tool get_weather gen_ai.tool.call.id=call_1 gen_ai.conversation.id=session-1',
      'span: execute_tool get_weather gen_ai.tool.call.id=call_2 gen_ai.conversation.id=session-1 error.type=Error tool_call.error.outcome=reported',
      'span: execute_tool get_forecast gen_ai.tool.call.id=call_3 gen_ai.conversation.id=session-1 error.type=ToolNotFoundError tool_call.error.source=model tool_call.error.outcome=reported',
    ]);
  }, 120_000); // a child process under npx tsx: slow on a busy machine, never timed
});
