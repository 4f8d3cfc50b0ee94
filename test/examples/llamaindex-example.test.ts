import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = new URL('../..', import.meta.url).pathname;

describe('examples/llamaindex', () => {
  it('the agent answers with the reported failure and the one span has the call id and the reported outcome', async () => {
    const { stdout } = await run('npx', ['tsx', 'examples/llamaindex/main.ts'], { cwd: repoRoot });

    expect(stdout.trimEnd().split('\n')).toEqual([
      "agent: The tool said: Tool 'forecast' failed: forecast service unavailable for Oslo",
      'span: execute_tool forecast id=call_1 error.type=Error outcome=reported',
    ]);
  }, 120_000); // a child process under npx tsx: slow on a busy machine, never timed
});
