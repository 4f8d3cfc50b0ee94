import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { functionToolCallback, ToolCallListeners } from 'otel-tool-calls';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AuditEvent, JsonlAuditListener } from '../../examples/audit-log/jsonl-audit-listener.js';

const run = promisify(execFile);
const repoRoot = new URL('../..', import.meta.url).pathname;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'audit-log-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const readEvents = (path: string): AuditEvent[] =>
  readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as AuditEvent);

/** tool_use events with their tool_result events, keyed by the correlation id. */
function pairs(events: AuditEvent[]) {
  const uses = events.filter((event) => event.type === 'tool_use');
  const results = events.filter((event) => event.type === 'tool_result');
  return {
    uses,
    results,
    resultsOf: (id: string) => results.filter((result) => result.tool_use_id === id),
  };
}

describe('examples/audit-log', () => {
  it('writes one tool_result per tool_use, with is_error true exactly for the failing tool', async () => {
    const file = join(dir, 'audit.jsonl');
    const { stdout } = await run('npx', ['tsx', 'examples/audit-log/main.ts', file], { cwd: repoRoot });

    const { uses, results, resultsOf } = pairs(readEvents(file));
    expect(uses.map((use) => use.name).sort()).toEqual(['convert_currency', 'get_weather', 'search_flights']);
    expect(results).toHaveLength(uses.length);
    expect(new Set(uses.map((use) => use.id)).size).toBe(uses.length);
    for (const use of uses) {
      const [result, ...extra] = resultsOf(use.id);
      expect(extra).toEqual([]);
      expect(result?.name).toBe(use.name);
      expect(result?.is_error).toBe(use.name === 'convert_currency');
    }
    const failed = results.find((result) => result.is_error);
    expect(failed?.content).toBe("Tool 'convert_currency' failed: exchange-rate service unavailable (HTTP 503)");
    expect(uses.find((use) => use.name === 'get_weather')).toMatchObject({
      tool_call_id: 'call_1',
      input: { city: 'Lisbon' },
    });
    expect(results.find((result) => result.name === 'get_weather')?.content).toBe('Lisbon: 18°C, light rain');

    // The agent saw the reported failure and answered anyway; the output names the file and its events.
    expect(stdout).toContain("no USD price: Tool 'convert_currency' failed");
    expect(stdout).toContain(`6 audit events written to ${file}`);
    expect(stdout).toContain('"type":"tool_result"');
  });

  it('appends to an existing log instead of overwriting it', async () => {
    const file = join(dir, 'audit.jsonl');
    await run('npx', ['tsx', 'examples/audit-log/main.ts', file], { cwd: repoRoot });
    const { stdout } = await run('npx', ['tsx', 'examples/audit-log/main.ts'], {
      cwd: repoRoot,
      env: { ...process.env, AUDIT_LOG_FILE: file },
    });

    expect(readEvents(file)).toHaveLength(12);
    expect(stdout).toContain(`6 audit events written to ${file}`);
  });

  it('pairs each tool_result with its own tool_use when many calls overlap', async () => {
    const file = join(dir, 'concurrent.jsonl');
    const echo = functionToolCallback({ name: 'echo' }, async ({ n }: { n: number }) => {
      await sleep((n * 7) % 13); // finish out of start order
      if (n % 5 === 0) throw new Error(`bad ${n}`);
      return n;
    });
    const tool = ToolCallListeners.wrap(echo, new JsonlAuditListener(file));

    const outputs = await Promise.all(Array.from({ length: 40 }, (_, n) => tool.call({ n })));

    expect(outputs[3]).toBe(3);
    expect(outputs[5]).toBe("Tool 'echo' failed: bad 5");
    const { uses, results, resultsOf } = pairs(readEvents(file));
    expect(uses).toHaveLength(40);
    expect(results).toHaveLength(40);
    for (const use of uses) {
      const n = (use.input as { n: number }).n;
      expect(resultsOf(use.id)).toEqual([
        expect.objectContaining(
          n % 5 === 0 ? { content: `Tool 'echo' failed: bad ${n}`, is_error: true } : { content: n, is_error: false },
        ),
      ]);
    }
  });
});
