import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = new URL('../..', import.meta.url).pathname;

describe('examples/google-genai', () => {
  it("automatic function calling gets the model's answer; each call of the batch is one span with its id, the failure reported", async () => {
    const { stdout } = await run('npx', ['tsx', 'examples/google-genai/main.ts'], { cwd: repoRoot });
    expect(stdout.trimEnd().split('\n')).toEqual([
      'model: Rain in Oslo; Atlantis is not on the map.',
      'span: execute_tool get_weather gen_ai.tool.call.id=fc_1',
      'span: execute_tool get_weather gen_ai.tool.call.id=fc_2 error.type=tool_error tool_call.error.outcome=reported',
    ]);
  }, 120_000); // a child process under npx tsx: slow on a busy machine, never timed
});
