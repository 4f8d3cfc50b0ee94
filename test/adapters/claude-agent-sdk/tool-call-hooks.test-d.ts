import {
  type CanUseTool,
  type HookCallbackMatcher,
  type HookEvent,
  type Options,
  query,
} from '@anthropic-ai/claude-agent-sdk';
import type { ToolCallListener } from 'otel-tool-calls';
import { type ToolCallHooks, ToolUseFailure, toolCallHooks } from 'otel-tool-calls/claude-agent-sdk';
import { describe, expectTypeOf, it } from 'vitest';

declare const listener: ToolCallListener<string>;

describe('otel-tool-calls/claude-agent-sdk types', () => {
  it("toolCallHooks gives what query()'s options take as hooks", () => {
    const hooks = toolCallHooks(listener);
    expectTypeOf(hooks).toEqualTypeOf<ToolCallHooks>();
    expectTypeOf(hooks).toExtend<Partial<Record<HookEvent, HookCallbackMatcher[]>>>();
    expectTypeOf(hooks).toExtend<NonNullable<Options['hooks']>>();
    query({ prompt: 'Do the task', options: { hooks } });
    query({ prompt: 'Do the task', options: { hooks: { ...hooks, Stop: [] } } });
  });

  it('endOpenCalls resolves once the calls still open have ended', () => {
    expectTypeOf(toolCallHooks(listener).endOpenCalls).toEqualTypeOf<() => Promise<void>>();
  });

  it("canUseTool observes the app's callback in the shape query()'s options take", () => {
    const hooks = toolCallHooks(listener);
    const canUseTool = hooks.canUseTool(async (_name, input) => ({ behavior: 'allow', updatedInput: input }));
    expectTypeOf(canUseTool).toEqualTypeOf<CanUseTool>();
    query({ prompt: 'Do the task', options: { hooks, canUseTool } });
  });

  it('ToolUseFailure carries the kind of failure as its code', () => {
    expectTypeOf(new ToolUseFailure('x').code).toEqualTypeOf<
      'tool_error' | 'interrupted' | 'permission_denied' | 'session_ended'
    >();
  });
});
