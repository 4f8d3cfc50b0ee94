import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = new URL('../..', import.meta.url).pathname;

describe('examples/openrouter', () => {
  it("callModel gets the model's answer; each call is one span with its id, the failure reported, the unknown tool the model's", async () => {
    const { stdout } = await run('npx', ['tsx', 'examples/openrouter/main.ts'], { cwd: repoRoot });
    expect(stdout.trimEnd().split('\n')).toEqual([
      'model: Rain in Oslo; Atlantis is not on the map.',
      'span: execute_tool get_weather gen_ai.tool.call.id=call_1',
      'span: execute_tool get_weather gen_ai.tool.call.id=call_2 error.type=Error tool_call.error.outcome=reported',
      'span: execute_tool get_forecast gen_ai.tool.call.id=call_3 error.type=UnknownToolError tool_call.error.source=model tool_call.error.outcome=reported',
    ]);
  }, 120_000); // a child process under npx tsx: slow on a busy machine, never timed
});
