import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = new URL('../..', import.meta.url).pathname;

describe('examples/genkit', () => {
  it("the model gets the reported failure, and Genkit's tool span is the call's one span, with the call id", async () => {
    const { stdout } = await run('npx', ['tsx', 'examples/genkit/main.ts'], { cwd: repoRoot });

    expect(stdout.trimEnd().split('\n')).toEqual([
      "model: The tool said: Tool 'forecast' failed: forecast service unavailable for Oslo",
      'span: forecast id=call_1 status=ERROR',
    ]);
  }, 120_000); // a child process under npx tsx: slow on a busy machine, never timed
});
