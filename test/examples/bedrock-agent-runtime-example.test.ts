import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = new URL('../..', import.meta.url).pathname;

describe('examples/bedrock-agent-runtime', () => {
  it("the agent gets the app's results; each call it handed is one span with its invocationId and session, the FAILURE its error", async () => {
    const { stdout } = await run('npx', ['tsx', 'examples/bedrock-agent-runtime/main.ts'], { cwd: repoRoot });
    expect(stdout.trimEnd().split('\n')).toEqual([
      'agent: Rain in Oslo; Atlantis is not on the map.',
      'span: execute_tool get_weather gen_ai.tool.call.id=inv-1 gen_ai.conversation.id=session-1',
      'span: execute_tool get_weather gen_ai.tool.call.id=inv-1 gen_ai.conversation.id=session-1 error.type=ReturnControlFailureError',
    ]);
  }, 120_000); // a child process under npx tsx: slow on a busy machine, never timed
});
