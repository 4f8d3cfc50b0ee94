import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = new URL('../..', import.meta.url).pathname;

describe('examples/anthropic', () => {
  it("the tool runner gets the model's answer, and each call is one span (the SDK's, joined), the failure reported", async () => {
    const { stdout } = await run('npx', ['tsx', 'examples/anthropic/main.ts'], { cwd: repoRoot });
    expect(stdout.trimEnd().split('\n')).toEqual([
      'model: Rain in Oslo; Atlantis is not on the map.',
      'span: anthropic.custom_tool_use get_weather gen_ai.tool.call.id=toolu_1',
      'span: anthropic.custom_tool_use get_weather gen_ai.tool.call.id=toolu_2 error.type=Error tool_call.error.outcome=reported',
    ]);
  }, 120_000); // a child process under npx tsx: slow on a busy machine, never timed
});
