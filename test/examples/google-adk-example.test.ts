import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = new URL('../..', import.meta.url).pathname;

describe('examples/google-adk', () => {
  it("the failing call is one span, ADK's own, in error with the call id; the model reads the reported text", async () => {
    const { stdout } = await run('npx', ['tsx', 'examples/google-adk/main.ts'], { cwd: repoRoot });

    const lines = stdout.trimEnd().split('\n');
    expect(lines.filter((line) => line.startsWith('span: '))).toEqual([
      'span: execute_tool forecast (gcp.vertex.agent) id=call_1 status=ERROR outcome=reported',
    ]);
    expect(lines).toContain('agent: No forecast today.');
    expect(lines).toContain(
      'tool response: {"error":"Tool \'forecast\' failed: Error in tool \'forecast\': forecast service unavailable for Oslo"}',
    );
  }, 120_000); // a child process under npx tsx: slow on a busy machine, never timed
});
