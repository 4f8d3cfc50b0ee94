/**
 * The Claude Agent SDK's permission decisions as `gen_ai.tool.call.decision` records, and its session
 * as `gen_ai.conversation.id`: the real `query()` and CLI against a fake Messages API, the model
 * calling Bash (which asks for permission in the default mode).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CanUseTool, HookCallback, SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import * as sdk from '@anthropic-ai/claude-agent-sdk';
import { toolCallHooks } from 'otel-tool-calls/claude-agent-sdk';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  METRIC_TOOL_CALL_APPROVAL_DURATION,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { runQuery, type Script, toolTurns } from '../../helpers/claude-query.mjs';
import { expectOneWaitPerAnswer, inMemoryLogs } from '../../helpers/decision-logs.js';
import { createTestTelemetry, useTestTelemetry } from '../../helpers/otel-sdk.js';
import { underPatchedModule } from '../../helpers/patched-module.js';

const telemetry = useTestTelemetry();

const TOUCH = (file: string) => ({ name: 'Bash', input: { command: `touch ${file}` } });
/** One turn, two Bash calls: toolu_1 touches a.txt, toolu_2 b.txt. */
const TWO_CALLS: Script = () => toolTurns([[TOUCH('a.txt'), TOUCH('b.txt')]]);
/** How long the human takes to answer each question. */
const HUMAN_WAIT_MS = 50;

/** The app's `canUseTool`: a human who, after a while, refuses a.txt and lets the rest run. */
const humanRefusingA: CanUseTool = async (_name, input) => {
  await sleep(HUMAN_WAIT_MS);
  if (String(input.command).includes('a.txt')) return { behavior: 'deny', message: 'not a.txt' };
  return { behavior: 'allow', updatedInput: input };
};

/** Each call's decisions under `humanRefusingA`. */
const REFUSED_A_ALLOWED_B = {
  'Bash toolu_1': ['require_approval', 'deny'],
  'Bash toolu_2': ['require_approval', 'allow'],
};

const sessionOf = (messages: SDKMessage[]) => messages.find((message) => message.type === 'result')?.session_id;
const toolSpans = (spans = telemetry.spans()) =>
  spans.filter((span) => span.attributes[ATTR_GEN_AI_OPERATION_NAME] === 'execute_tool');

/** Each call's outcomes in order (the CLI may ask about the two calls in either order). */
async function outcomesByCall(decisions: () => Promise<string[]>): Promise<Record<string, string[]>> {
  const byCall: Record<string, string[]> = {};
  for (const decision of await decisions()) {
    const [tool, id, outcome] = decision.split(' ');
    const call = `${tool} ${id}`;
    byCall[call] = [...(byCall[call] ?? []), outcome ?? ''];
  }
  return byCall;
}

describe("the Claude Agent SDK's permission decisions", { timeout: 60_000 }, () => {
  it('canUseTool observed: asked, denied and allowed, each answer with its wait; the session as the conversation', async () => {
    const { loggerProvider, decisions, records } = inMemoryLogs();
    const hooks = toolCallHooks(telemetry.listener({ loggerProvider }));
    const { messages } = await runQuery(TWO_CALLS, { hooks, canUseTool: hooks.canUseTool(humanRefusingA) });

    // one deny for toolu_1, though the batch's end settles it as denied too
    expect(await outcomesByCall(decisions)).toEqual(REFUSED_A_ALLOWED_B);
    const session = sessionOf(messages);
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    for (const { attributes } of await records()) expect(attributes[ATTR_GEN_AI_CONVERSATION_ID]).toBe(session);
    const spans = toolSpans().map((span) => [
      span.attributes[ATTR_GEN_AI_TOOL_CALL_ID],
      span.attributes['error.type'],
      span.attributes[ATTR_GEN_AI_CONVERSATION_ID],
    ]);
    // the hooks open a call before its permission is decided: the denied one ends as permission_denied
    expect(spans.sort()).toEqual([
      ['toolu_1', 'permission_denied', session],
      ['toolu_2', undefined, session],
    ]);
    expectOneWaitPerAnswer(await telemetry.histogramPoints(METRIC_TOOL_CALL_APPROVAL_DURATION), HUMAN_WAIT_MS);
  });

  it.each<[string, Partial<sdk.Options>]>([
    ["the permission mode ('dontAsk': not pre-approved)", { permissionMode: 'dontAsk' }],
    [
      "a PreToolUse hook of the app's",
      {
        hooks: {
          PreToolUse: [
            {
              hooks: [
                (async () => ({
                  hookSpecificOutput: {
                    hookEventName: 'PreToolUse',
                    permissionDecision: 'deny',
                    permissionDecisionReason: 'never',
                  },
                })) satisfies HookCallback,
              ],
            },
          ],
        },
      },
    ],
  ])('a call denied without asking the app (%s): one deny, no question, no wait', async (_case, options) => {
    const { loggerProvider, decisions, records } = inMemoryLogs();
    const hooks = toolCallHooks(telemetry.listener({ loggerProvider }));
    const own = options.hooks?.PreToolUse ?? [];
    const { messages } = await runQuery(() => toolTurns([[TOUCH('a.txt')]]), {
      ...options,
      hooks: { ...hooks, PreToolUse: [...own, ...hooks.PreToolUse] },
    });
    expect(await decisions()).toEqual(['Bash toolu_1 deny']);
    const [record] = await records();
    expect(record?.attributes[ATTR_GEN_AI_CONVERSATION_ID]).toBe(sessionOf(messages));
    expect(await telemetry.histogramPoints(METRIC_TOOL_CALL_APPROVAL_DURATION)).toEqual([]);
  });

  it("a listener without onDecision: the app's canUseTool answers as it would alone", async () => {
    const hooks = toolCallHooks({});
    const { home } = await runQuery(TWO_CALLS, { hooks, canUseTool: hooks.canUseTool(humanRefusingA) });
    const { existsSync } = await import('node:fs');
    expect([existsSync(`${home}/a.txt`), existsSync(`${home}/b.txt`)]).toEqual([false, true]);
  });

  it('canUseTool(x) refuses what is not a function, naming it', () => {
    expect(() => toolCallHooks({}).canUseTool(undefined as never)).toThrow(
      new TypeError('toolCallHooks(...).canUseTool: `canUseTool` must be a function, got undefined'),
    );
  });
});

describe("zero-code: the Claude Agent SDK's permission decisions", { timeout: 60_000 }, () => {
  it("the app's canUseTool is observed: its questions and answers, the session on spans and records", async () => {
    const test = createTestTelemetry();
    const { loggerProvider, decisions, records } = inMemoryLogs();
    await underPatchedModule(
      test,
      '@anthropic-ai/claude-agent-sdk',
      { ...sdk },
      async (patched) => {
        const { messages } = await runQuery(TWO_CALLS, { canUseTool: humanRefusingA }, patched.query);
        expect(await outcomesByCall(decisions)).toEqual(REFUSED_A_ALLOWED_B);
        const session = sessionOf(messages);
        for (const { attributes } of await records()) expect(attributes[ATTR_GEN_AI_CONVERSATION_ID]).toBe(session);
        const spans = toolSpans(test.spans());
        expect(spans.map((span) => span.attributes[ATTR_GEN_AI_CONVERSATION_ID])).toEqual([session, session]);
      },
      { loggerProvider },
    );
  });
});
