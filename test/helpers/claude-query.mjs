// The Claude Agent SDK's real query() against a fake Messages API (plain JavaScript: fixture apps under
// test/register load it too); types in the .d.mts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { startFakeMessagesApi } from './fake-messages-api.mjs';

/** The model's turns, each a list of tool calls (ids `toolu_1`, `toolu_2`... in order), then `done`. */
export function toolTurns(turns) {
  let turn = 0;
  let calls = 0;
  return (request) => {
    // the CLI's own request for a title: no tools
    if (request.body.max_tokens !== undefined && !Array.isArray(request.body.tools))
      return { content: [{ type: 'text', text: 'title' }] };
    const next = turns[turn];
    if (next === undefined) return { content: [{ type: 'text', text: 'done' }] };
    turn += 1;
    return { content: next.map(({ name, input }) => ({ type: 'tool_use', id: `toolu_${++calls}`, name, input })) };
  };
}

/** The model calls each tool once, one per turn, then says `done`. */
export function callsInTurn(calls) {
  return toolTurns(calls.map((call) => [call]));
}

/**
 * A `canUseTool` that allows each of `count` calls once all of them are asked: their PreToolUse
 * hooks came first, so that all of them are open at once (concurrent sessions, without timing).
 */
export function allowWhenAllAsked(count) {
  let arrived = 0;
  let allOpen = () => {};
  const allAsked = new Promise((resolve) => {
    allOpen = resolve;
  });
  return async (_name, input) => {
    arrived += 1;
    if (arrived === count) allOpen();
    await allAsked;
    return { behavior: 'allow', updatedInput: input };
  };
}

/**
 * Starts the Claude Agent SDK's real `query()` (its bundled CLI, a native binary) against a fake
 * Messages API on 127.0.0.1, pointed at it by `ANTHROPIC_BASE_URL`, in a fresh home and working
 * directory (which holds `notes.txt`; `script` gets its path), with `run` (the SDK's `query`, or a
 * patched one). Iterating the query is the caller's;
 * `close()` stops the API.
 */
export async function startQuery(script, options, run = query) {
  const home = mkdtempSync(join(tmpdir(), 'otel-tool-calls-claude-'));
  writeFileSync(join(home, 'notes.txt'), 'remember the milk\n');
  const api = await startFakeMessagesApi(script(home));
  const running = run({
    prompt: 'Do the task',
    options: {
      cwd: home,
      settingSources: [],
      permissionMode: 'default',
      ...options,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        ANTHROPIC_BASE_URL: api.baseURL,
        ANTHROPIC_API_KEY: 'test-key',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
        ...options.env,
      },
    },
  });
  return { query: running, home, requests: api.requests, close: () => api.close() };
}

/** `startQuery`, iterated to its end: every message, the API's requests, the home directory. */
export async function runQuery(script, options, run = query) {
  const started = await startQuery(script, options, run);
  const messages = [];
  try {
    for await (const message of started.query) messages.push(message);
  } finally {
    await started.close();
  }
  return { messages, requests: started.requests, home: started.home };
}
