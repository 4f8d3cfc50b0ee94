import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Options, query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { type ReceivedRequest, type Reply, startFakeMessagesApi } from '../../helpers/fake-messages-api.mjs';

/** Whether the last message of a request to the fake API answers a tool call. */
export function answersToolCall(request: ReceivedRequest): boolean {
  const messages = request.body.messages ?? [];
  const last = messages[messages.length - 1] as { content?: unknown } | undefined;
  return Array.isArray(last?.content) && last.content.some((block: { type?: string }) => block.type === 'tool_result');
}

/** The model calls each tool once (ids `toolu_1`...), in turns, then says `done`. */
export function callsInTurn(calls: ReadonlyArray<{ readonly name: string; readonly input: unknown }>) {
  let turn = 0;
  return (request: ReceivedRequest): Reply => {
    if (request.body.max_tokens !== undefined && !Array.isArray(request.body.tools))
      return { content: [{ type: 'text', text: 'title' }] };
    const next = calls[turn];
    if (next === undefined) return { content: [{ type: 'text', text: 'done' }] };
    turn += 1;
    return { content: [{ type: 'tool_use', id: `toolu_${turn}`, name: next.name, input: next.input }] };
  };
}

/**
 * Runs the Claude Agent SDK's real `query()` (its bundled CLI, a native binary) against a fake
 * Messages API on 127.0.0.1, pointed at it by `ANTHROPIC_BASE_URL`, in a fresh home and working
 * directory (which holds `notes.txt`; `script` gets its path). Returns every message and the API's requests.
 */
export async function runQuery(
  script: (home: string) => (request: ReceivedRequest, index: number) => Reply,
  options: Options,
) {
  const home = mkdtempSync(join(tmpdir(), 'otel-tool-calls-claude-'));
  writeFileSync(join(home, 'notes.txt'), 'remember the milk\n');
  const api = await startFakeMessagesApi(script(home));
  const messages: SDKMessage[] = [];
  try {
    for await (const message of query({
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
    })) {
      messages.push(message);
    }
  } finally {
    await api.close();
  }
  return { messages, requests: api.requests, home };
}
