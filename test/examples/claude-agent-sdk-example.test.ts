import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = new URL('../..', import.meta.url).pathname;

describe('examples/claude-agent-sdk', () => {
  it('the agent finishes, and each tool call (built-in and SDK MCP) is one span with its tool_use id', async () => {
    const { stdout } = await run('npx', ['tsx', 'examples/claude-agent-sdk/main.ts'], { cwd: repoRoot });
    expect(stdout.trimEnd().split('\n')).toEqual([
      'agent: Read the notes; 2 + 3 = 5.',
      'span: execute_tool Read gen_ai.tool.call.id=toolu_1',
      'span: execute_tool mcp__calc__add gen_ai.tool.call.id=toolu_2 mcp.method.name=tools/call',
    ]);
  }, 120_000); // a child process under npx tsx and the SDK's CLI: slow on a busy machine, never timed
});
