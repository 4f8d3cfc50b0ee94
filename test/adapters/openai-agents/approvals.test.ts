/**
 * The OpenAI Agents SDK's tool approvals (`needsApproval`) as decisions, and its trace group as the
 * conversation: a real `run()` whose model calls send_email (which needs approval) twice in one turn;
 * the app rejects call_1 and approves call_2 after a human's wait, then resumes the run.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import * as agents from '@openai/agents';
import {
  Agent,
  type Model,
  type ModelRequest,
  type ModelResponse,
  Runner,
  run,
  setTraceProcessors,
  setTracingDisabled,
  type Tool,
  tool,
  Usage,
} from '@openai/agents';
import type { ToolCallDecision, ToolCallListener } from 'otel-tool-calls';
import { wrapTools } from 'otel-tool-calls/openai-agents';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_TOOL_CALL_ID,
  METRIC_TOOL_CALL_APPROVAL_DURATION,
} from 'otel-tool-calls/semconv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { expectOneWaitPerAnswer, inMemoryLogs } from '../../helpers/decision-logs.js';
import { createTestTelemetry, useTestTelemetry } from '../../helpers/otel-sdk.js';
import { underPatchedModule } from '../../helpers/patched-module.js';

const telemetry = useTestTelemetry();
/** How long the human takes to answer. */
const HUMAN_WAIT_MS = 50;
const GROUP = 'conversation-9';

/** send_email called with each of `argumentsByCallId` in one turn; once the model has their outputs, it says done. */
class EmailingModel implements Model {
  constructor(
    private readonly argumentsByCallId: Record<string, string> = {
      call_1: JSON.stringify({ to: 'a@example.com' }),
      call_2: JSON.stringify({ to: 'b@example.com' }),
    },
  ) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const answered = Array.isArray(request.input) && request.input.some((item) => item.type === 'function_call_result');
    if (answered) {
      const text = { type: 'output_text' as const, text: 'done' };
      return {
        usage: new Usage(),
        output: [{ type: 'message', role: 'assistant', status: 'completed', content: [text] }],
      };
    }
    const calls = Object.entries(this.argumentsByCallId).map(([callId, args]) => ({
      type: 'function_call' as const,
      callId,
      name: 'send_email',
      arguments: args,
      status: 'completed' as const,
    }));
    return { usage: new Usage(), output: calls };
  }

  // biome-ignore lint/correctness/useYield: run() in these tests is not streamed
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('EmailingModel does not stream');
  }
}

/** A run whose model calls send_email with arguments that are not JSON: whether it stopped for approval, and its output. */
async function unreadableCall(tools: Tool[]): Promise<{ interruptions: number; finalOutput: unknown }> {
  const model = new EmailingModel({ call_1: '{"to": ' });
  const result = await run(new Agent({ name: 'mailer', model, tools }), 'Email a');
  return { interruptions: result.interruptions.length, finalOutput: result.finalOutput };
}

/** The decisions of `askRejectApprove`, in order. */
const ASKED_REJECTED_APPROVED = [
  'send_email call_1 require_approval',
  'send_email call_2 require_approval',
  'send_email call_1 deny',
  'send_email call_2 allow',
];

const sent: string[] = [];
const sendEmail = tool({
  name: 'send_email',
  description: 'Sends an email',
  parameters: z.object({ to: z.string() }),
  needsApproval: true,
  execute: async ({ to }) => {
    sent.push(to);
    return `sent to ${to}`;
  },
});

/** Asks, then (after the human's wait) rejects call_1 and approves call_2, and resumes: the final output. */
async function askRejectApprove(tools: Tool[], groupId: string | null = GROUP): Promise<unknown> {
  sent.length = 0;
  const agent = new Agent({ name: 'mailer', model: new EmailingModel(), tools });
  // the trace group names the conversation (RunConfig.groupId)
  const runner = new Runner(groupId === null ? {} : { groupId });
  const first = await runner.run(agent, 'Email a and b');
  expect(first.interruptions.map((item) => item.rawItem.type === 'function_call' && item.rawItem.callId)).toEqual([
    'call_1',
    'call_2',
  ]);
  await sleep(HUMAN_WAIT_MS);
  const [reject, approve] = first.interruptions;
  if (reject === undefined || approve === undefined) throw new Error('two approvals expected');
  first.state.reject(reject);
  first.state.approve(approve);
  const second = await runner.run(agent, first.state);
  return second.finalOutput;
}

beforeEach(() => {
  setTraceProcessors([]);
  setTracingDisabled(false);
});
afterEach(() => setTracingDisabled(true));

describe('OpenAI Agents approvals (needsApproval) as decisions', () => {
  it('asked, rejected and approved: the records with their waits, a span only for the call that ran', async () => {
    const { loggerProvider, decisions, records } = inMemoryLogs();
    const output = await askRejectApprove(wrapTools([sendEmail], telemetry.listener({ loggerProvider })));

    expect(output).toBe('done');
    expect(sent).toEqual(['b@example.com']);
    expect(await decisions()).toEqual(ASKED_REJECTED_APPROVED);
    for (const { attributes } of await records()) expect(attributes[ATTR_GEN_AI_CONVERSATION_ID]).toBe(GROUP);
    const spans = telemetry.spans().filter((span) => span.name === 'execute_tool send_email');
    expect(
      spans.map((span) => [span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span.attributes[ATTR_GEN_AI_CONVERSATION_ID]]),
    ).toEqual([['call_2', GROUP]]);
    expectOneWaitPerAnswer(await telemetry.histogramPoints(METRIC_TOOL_CALL_APPROVAL_DURATION), HUMAN_WAIT_MS);
  });

  it('without a trace group: no conversation id on the span or the records', async () => {
    const { loggerProvider, records } = inMemoryLogs();
    await askRejectApprove(wrapTools([sendEmail], telemetry.listener({ loggerProvider })), null);
    expect((await records()).map(({ attributes }) => attributes[ATTR_GEN_AI_CONVERSATION_ID])).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    const [span] = telemetry.spans().filter((candidate) => candidate.name === 'execute_tool send_email');
    expect(span?.attributes[ATTR_GEN_AI_CONVERSATION_ID]).toBeUndefined();
  });

  it('a listener without onDecision: the tool keeps its own needsApproval, the flow as unobserved', async () => {
    const listener: ToolCallListener = {};
    const [wrapped] = wrapTools([sendEmail], listener);
    expect(wrapped?.needsApproval).toBe(sendEmail.needsApproval);
    expect(await askRejectApprove([wrapped as Tool])).toBe('done');
    expect(sent).toEqual(['b@example.com']);
  });

  it('recordDecisions: false: the tool keeps its own needsApproval, and the runner its handling of it', async () => {
    const { loggerProvider, decisions } = inMemoryLogs();
    const [wrapped] = wrapTools([sendEmail], telemetry.listener({ loggerProvider, recordDecisions: false }));
    expect(wrapped?.needsApproval).toBe(sendEmail.needsApproval);
    // as without the adapter: a policy set as `true` answers unreadable arguments at once, no approval asked
    expect(await unreadableCall([sendEmail])).toEqual({ interruptions: 0, finalOutput: 'done' });
    expect(await unreadableCall([wrapped as Tool])).toEqual({ interruptions: 0, finalOutput: 'done' });
    expect(await askRejectApprove([wrapped as Tool])).toBe('done');
    expect(sent).toEqual(['b@example.com']);
    expect(await decisions()).toEqual([]);
  });

  it('decisions recorded: the runner takes the policy as one the app wrote, and asks approval for unreadable arguments', async () => {
    const { loggerProvider, decisions } = inMemoryLogs();
    const [wrapped] = wrapTools([sendEmail], telemetry.listener({ loggerProvider }));
    // docs/frameworks/openai-agents.md: the SDK's rule for a needsApproval function it did not make
    expect(await unreadableCall([wrapped as Tool])).toEqual({ interruptions: 1, finalOutput: undefined });
    // the runner asks without calling needsApproval: no question is seen
    expect(await decisions()).toEqual([]);
  });

  it('a tool with no approval policy of its own behaves as without the package: unreadable arguments are told to the model, the run goes on', async () => {
    const { loggerProvider, decisions } = inMemoryLogs();
    const listener = telemetry.listener({ loggerProvider });
    for (const free of [tool(sendEmailOptions()), tool({ ...sendEmailOptions(), needsApproval: false })]) {
      const [wrapped] = wrapTools([free], listener);
      expect(wrapped?.needsApproval).toBe(free.needsApproval);
      // bare: the runner answers the model that it could not read the arguments, and the run goes on
      expect(await unreadableCall([free])).toEqual({ interruptions: 0, finalOutput: 'done' });
      expect(await unreadableCall([wrapped as Tool])).toEqual({ interruptions: 0, finalOutput: 'done' });
    }
    expect(await decisions()).toEqual([]);
  });

  it('a tool observed by two listeners: each is told the question and the answer', async () => {
    const toldA: ToolCallDecision[] = [];
    const toldB: ToolCallDecision[] = [];
    const inner = wrapTools([sendEmail], { onDecision: (decision) => toldA.push(decision) });
    const tools = wrapTools(inner, { onDecision: (decision) => toldB.push(decision) });
    expect(await askRejectApprove(tools)).toBe('done');
    expect(sent).toEqual(['b@example.com']);
    for (const told of [toldA, toldB]) {
      expect(told.map(({ toolName, toolCallId, outcome }) => `${toolName} ${toolCallId} ${outcome}`)).toEqual(
        ASKED_REJECTED_APPROVED,
      );
      // each answer with its wait since the question
      expect(told.map(({ waitSeconds }) => waitSeconds === undefined)).toEqual([true, true, false, false]);
    }
  });

  it('a tool that needs no approval: no decision, the call runs', async () => {
    const told: ToolCallDecision[] = [];
    const free = tool({ ...sendEmailOptions(), needsApproval: false });
    const agent = new Agent({
      name: 'mailer',
      model: new EmailingModel(),
      tools: wrapTools([free], { onDecision: (decision) => told.push(decision) }),
    });
    sent.length = 0;
    const result = await run(agent, 'Email a and b');
    expect(result.interruptions).toEqual([]);
    expect(sent).toEqual(['a@example.com', 'b@example.com']);
    expect(told).toEqual([]);
  });
});

function sendEmailOptions() {
  return {
    name: 'send_email',
    description: 'Sends an email',
    parameters: z.object({ to: z.string() }),
    execute: async ({ to }: { to: string }) => {
      sent.push(to);
      return `sent to ${to}`;
    },
  };
}

describe('zero-code: OpenAI Agents approvals as decisions', () => {
  it("the agent's own tools: asked, rejected and approved, the group as the conversation", async () => {
    const test = createTestTelemetry();
    const { loggerProvider, decisions, records } = inMemoryLogs();
    // the patch wraps Agent.prototype.getAllTools: the SDK's own class, whatever object is handed
    await underPatchedModule(
      test,
      '@openai/agents',
      { ...agents },
      async () => {
        expect(await askRejectApprove([sendEmail])).toBe('done');
        expect(await decisions()).toEqual(ASKED_REJECTED_APPROVED);
        for (const { attributes } of await records()) expect(attributes[ATTR_GEN_AI_CONVERSATION_ID]).toBe(GROUP);
        const spans = test.spans().filter((span) => span.name === 'execute_tool send_email');
        expect(spans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])).toEqual(['call_2']);
      },
      { loggerProvider },
    );
  });

  it('a tool with no approval policy of its own: unreadable arguments are told to the model, the run goes on', async () => {
    const test = createTestTelemetry();
    const { loggerProvider, decisions } = inMemoryLogs();
    await underPatchedModule(
      test,
      '@openai/agents',
      { ...agents },
      async () => {
        expect(await unreadableCall([tool(sendEmailOptions())])).toEqual({ interruptions: 0, finalOutput: 'done' });
        // the tools with a policy are still asked about
        expect(await askRejectApprove([sendEmail])).toBe('done');
        expect(await decisions()).toEqual(ASKED_REJECTED_APPROVED);
      },
      { loggerProvider },
    );
  });

  it('recordDecisions: false in its config: the tools keep their own needsApproval, the runner its handling', async () => {
    const test = createTestTelemetry();
    const { loggerProvider, decisions } = inMemoryLogs();
    await underPatchedModule(
      test,
      '@openai/agents',
      { ...agents },
      async () => {
        expect(await unreadableCall([sendEmail])).toEqual({ interruptions: 0, finalOutput: 'done' });
        expect(await askRejectApprove([sendEmail])).toBe('done');
        expect(await decisions()).toEqual([]);
        // the calls that run are still observed: the approved one's span (unreadable arguments run none)
        const spans = test.spans().filter((span) => span.name === 'execute_tool send_email');
        expect(spans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])).toEqual(['call_2']);
      },
      { loggerProvider, recordDecisions: false },
    );
  });
});
