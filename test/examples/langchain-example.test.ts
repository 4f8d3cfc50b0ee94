import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
// a child process (npx, tsx, TypeScript transform) on a busy shared machine: a generous bound
const SPAWN_TIMEOUT = 120_000;
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

describe('examples/langchain', () => {
  it('answers each ToolCall with a ToolMessage and traces each call, the failing one reported', {
    timeout: SPAWN_TIMEOUT,
  }, async () => {
    const { stdout } = await run('npx', ['tsx', 'examples/langchain/main.ts'], {
      cwd: repoRoot,
      timeout: SPAWN_TIMEOUT,
    });
    const [messages, spans] = stdout.trimEnd().split('\n\nspans:\n');

    expect(messages?.split('\n')).toEqual([
      "ToolMessage call_1: 2 pages match 'span export': tracing.md, metrics.md",
      "ToolMessage call_2: Tool 'open_ticket' failed: ticket system is read-only during maintenance",
    ]);
    // spans in the order they ended: the two calls run concurrently, so compare as a set
    expect(spans?.split('\n').sort()).toEqual([
      'execute_tool open_ticket ERROR "ticket system is read-only during maintenance" ' +
        'gen_ai.tool.call.id=call_2 error.type=Error tool_call.error.outcome=reported',
      'execute_tool search_docs OK gen_ai.tool.call.id=call_1',
    ]);
  });
});
