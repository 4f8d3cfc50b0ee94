import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = new URL('../..', import.meta.url).pathname;

describe('examples/mastra', () => {
  it("the failing call is one span, the OTel bridge's, in error with the call id and the reported outcome", async () => {
    const { stdout } = await run('npx', ['tsx', 'examples/mastra/main.ts'], { cwd: repoRoot });

    const lines = stdout.trimEnd().split('\n');
    expect(lines.filter((line) => line.startsWith('span: '))).toEqual([
      'span: execute_tool forecast (@mastra/otel-bridge) id=call_1 status=ERROR outcome=reported',
    ]);
    expect(lines).toContain('agent: No forecast today.');
  }, 120_000); // a child process under npx tsx: slow on a busy machine, never timed
});
