import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = new URL('../..', import.meta.url).pathname;

describe('examples/mcp', () => {
  it('answers each call, reports both kinds of failure to the client and traces them as MCP server spans', async () => {
    const { stdout } = await run('npx', ['tsx', 'examples/mcp/main.ts'], { cwd: repoRoot });

    const lines = stdout.trimEnd().split('\n');
    expect(lines).toContain('weather: ok -> sunny in Oslo');
    expect(lines).toContain("forecast: error -> Tool 'forecast' failed: forecast service unavailable");
    expect(lines).toContain("alerts: error -> Tool 'alerts' failed: no alert feed for Oslo");
    const spans = lines.filter((line) => line.startsWith('tools/call'));
    expect(spans).toHaveLength(3);
    expect(spans.every((line) => line.includes(' gen_ai.tool.type=extension mcp.method.name=tools/call '))).toBe(true);
    expect(spans.find((line) => line.startsWith('tools/call weather '))).toMatch(/ jsonrpc\.request\.id=\d+$/);
    // a tool that throws and one that returns isError: both tool_error, as the MCP conventions ask
    expect(spans.find((line) => line.startsWith('tools/call forecast '))).toMatch(/ error\.type=tool_error$/);
    expect(spans.find((line) => line.startsWith('tools/call alerts '))).toMatch(/ error\.type=tool_error$/);
    // the other operations' spans print what they have: no attribute they lack, never `undefined`
    expect(lines).toContain('notifications/initialized mcp.method.name=notifications/initialized');
    expect(stdout).not.toContain('undefined');
  }, 120_000); // a child process under npx tsx: slow on a busy machine, never timed
});
