import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
// a child process (npx, tsx, TypeScript transform) on a busy shared machine: a generous bound
const SPAWN_TIMEOUT = 120_000;
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

describe('examples/ai-sdk', () => {
  it('runs a generateText loop whose tool calls are spans under the agent run, the failing one reported', {
    timeout: SPAWN_TIMEOUT,
  }, async () => {
    const { stdout } = await run('npx', ['tsx', 'examples/ai-sdk/main.ts'], { cwd: repoRoot, timeout: SPAWN_TIMEOUT });
    const [answer, , ...tree] = stdout.trimEnd().split('\n');

    // the model's second turn was built from both tool results, the reported error among them
    expect(answer).toBe(
      'agent: Based on {"city":"Lisbon","celsius":18,"sky":"light rain"} and ' +
        `"Tool 'convertCurrency' failed: exchange-rate service unavailable (HTTP 503)"`,
    );
    expect(tree[0]).toBe('agent run');
    // siblings in any order: the two tools run concurrently
    expect([...tree.slice(1)].sort()).toEqual(
      [
        '  execute_tool getWeather gen_ai.tool.call.id=call_1',
        '    GET api.weather.example',
        '  execute_tool convertCurrency ERROR "exchange-rate service unavailable (HTTP 503)" ' +
          'gen_ai.tool.call.id=call_2 error.type=Error tool_call.error.outcome=reported',
      ].sort(),
    );
    // the HTTP span is printed right under its parent, the getWeather tool span
    const http = tree.indexOf('    GET api.weather.example');
    expect(tree[http - 1]).toBe('  execute_tool getWeather gen_ai.tool.call.id=call_1');
  });
});
