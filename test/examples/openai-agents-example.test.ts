import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = new URL('../..', import.meta.url).pathname;

describe('examples/openai-agents', () => {
  it('the agent answers with the reported failure and the span records it as a reported tool_error', async () => {
    const { stdout } = await run('npx', ['tsx', 'examples/openai-agents/main.ts'], { cwd: repoRoot });

    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^agent: The tool said: Tool 'forecast' failed: /);
    expect(lines.slice(1)).toEqual(['span: execute_tool forecast id=call_1 error.type=tool_error outcome=reported']);
  }, 120_000); // a child process under npx tsx: slow on a busy machine, never timed
});
