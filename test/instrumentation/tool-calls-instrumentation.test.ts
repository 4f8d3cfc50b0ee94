import { createRequire } from 'node:module';
import { isWrapped } from '@opentelemetry/instrumentation';
import { generateText, stepCountIs, tool } from 'ai';
import { wrapTools } from 'otel-tool-calls/ai-sdk';
import { ToolCallsInstrumentation } from 'otel-tool-calls/instrumentation';
import { ATTR_GEN_AI_AGENT_NAME, ATTR_GEN_AI_TOOL_CALL_ID } from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolCallThenText } from '../adapters/ai-sdk/mock-model.js';
import { createTestTelemetry } from '../helpers/otel-sdk.js';
import { recordingListener } from '../helpers/recording-listener.js';

// the AI SDK's CommonJS exports, as require-in-the-middle hands them to the patch
const aiCommonJs = createRequire(import.meta.url)('ai') as Record<string, unknown>;

/** The instrumentation's patch of the `ai` module, applied as InstrumentationBase applies it. */
function patchAi(instrumentation: ToolCallsInstrumentation) {
  const definition = instrumentation
    .getModuleDefinitions()
    .find((candidate) => candidate.name === 'ai' && candidate.supportedVersions[0] !== '*');
  const patched = definition?.patch?.(aiCommonJs) as { generateText: typeof generateText };
  return { patched, unpatch: () => definition?.unpatch?.(aiCommonJs) };
}

const weather = tool({ inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => `sunny in ${city}` });
const call = { toolName: 'weather', input: { city: 'Oslo' }, toolCallId: 'call_1' };

describe('ToolCallsInstrumentation', () => {
  it('declares each framework and its supported range, as contrib instrumentations do', () => {
    const definitions = new ToolCallsInstrumentation({ enabled: false }).getModuleDefinitions();
    const declared = definitions
      .filter((definition) => definition.supportedVersions[0] !== '*')
      .map((definition) => [definition.name, definition.supportedVersions]);
    expect(declared).toEqual([
      ['ai', ['>=6.0.0 <8']],
      ['@modelcontextprotocol/sdk', ['>=1.20.0 <2']],
      ['@modelcontextprotocol/server', ['>=2.4.0 <3']],
      ['@modelcontextprotocol/client', ['>=2.4.0 <3']],
      ['@langchain/core', ['>=1.0.0 <2']],
      ['@openai/agents', ['>=0.20.0 <1']],
      ['@openai/agents-core', ['>=0.20.0 <1']],
      ['@anthropic-ai/sdk', ['>=1.15.0 <2']],
      ['@anthropic-ai/claude-agent-sdk', ['>=0.3.333 <1']],
      ['@google/adk', ['>=2.0.0 <3']],
      ['@llamaindex/core', ['>=0.6.0 <1']],
      ['@genkit-ai/ai', ['>=1.42.0 <2']],
      ['openai', ['>=7.0.0 <8']],
      ['@ai-sdk/mcp', ['>=1.0.0 <3']],
      ['@google/genai', ['>=2.0.0 <4']],
      ['@mariozechner/pi-agent-core', ['>=0.73.0 <1']],
      ['@openrouter/agent', ['>=0.8.0 <1']],
      ['@openrouter/sdk', ['>=1.3.0 <2']],
      ['@aws-sdk/client-bedrock-agent-runtime', ['>=3.700.0 <4']],
    ]);
  });

  it("takes the listener's options: an invalid one is a TypeError naming it", () => {
    expect(() => new ToolCallsInstrumentation({ enabled: false, errorPolicy: 'ignore' as never })).toThrowError(
      TypeError,
    );
    expect(() => new ToolCallsInstrumentation({ enabled: false, errorPolicy: 'ignore' as never })).toThrowError(
      /errorPolicy/,
    );
  });

  it('observes generateText tools on the tracer provider the SDK hands it, with its config', async () => {
    const telemetry = createTestTelemetry();
    const instrumentation = new ToolCallsInstrumentation({ enabled: false, agentName: 'zero-code' });
    instrumentation.setTracerProvider(telemetry.tracerProvider);
    instrumentation.setMeterProvider(telemetry.meterProvider);
    instrumentation.enable();
    const { patched, unpatch } = patchAi(instrumentation);
    try {
      const result = await patched.generateText({
        model: toolCallThenText(call),
        tools: { weather },
        stopWhen: stepCountIs(2),
        prompt: 'Weather?',
      });
      expect(result.text).toBe('done');
      const [span] = telemetry.spans();
      expect(span?.name).toBe('execute_tool weather');
      expect(span?.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('call_1');
      expect(span?.attributes[ATTR_GEN_AI_AGENT_NAME]).toBe('zero-code');
      expect(telemetry.spans()).toHaveLength(1);
    } finally {
      unpatch();
      instrumentation.disable();
    }
  });

  it('bundled CommonJS exports (non-configurable getters) are patched on a copy; disable() restores it', () => {
    const instrumentation = new ToolCallsInstrumentation({ enabled: false });
    instrumentation.enable();
    const { patched, unpatch } = patchAi(instrumentation);
    expect(patched).not.toBe(aiCommonJs);
    expect(isWrapped(patched.generateText)).toBe(true);
    expect(isWrapped(aiCommonJs.generateText)).toBe(false); // the SDK's own object is never changed
    // enable() again patches the same copy (the one require() returns from then on)
    expect(patchAi(instrumentation).patched).toBe(patched);
    unpatch();
    expect(isWrapped(patched.generateText)).toBe(false);
    expect(patched.generateText).toBe(aiCommonJs.generateText);
    instrumentation.disable();
  });

  it('leaves a tool wrapped with wrapTools to its own listener, and keeps the tool unchanged when disabled', async () => {
    const telemetry = createTestTelemetry();
    const instrumentation = new ToolCallsInstrumentation({ enabled: false });
    instrumentation.setTracerProvider(telemetry.tracerProvider);
    instrumentation.enable();
    const { patched, unpatch } = patchAi(instrumentation);
    const own = recordingListener();
    try {
      const tools = wrapTools({ weather }, own.listener);
      await patched.generateText({
        model: toolCallThenText(call),
        tools,
        stopWhen: stepCountIs(2),
        prompt: 'Weather?',
      });
      expect(own.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
      expect(telemetry.spans()).toEqual([]);

      instrumentation.disable(); // a reference to the patched function taken before disable() passes through
      await patched.generateText({
        model: toolCallThenText(call),
        tools: { weather },
        stopWhen: stepCountIs(2),
        prompt: 'Weather?',
      });
      expect(telemetry.spans()).toEqual([]);
    } finally {
      unpatch();
    }
  });

  it("a tool record it cannot read is passed on as it is: the outcome is the framework's own", async () => {
    const instrumentation = new ToolCallsInstrumentation({ enabled: false });
    instrumentation.enable();
    const { patched, unpatch } = patchAi(instrumentation);
    try {
      const hostile = new Proxy(
        {},
        {
          ownKeys: () => {
            throw new Error('unreadable tools');
          },
        },
      );
      const outcome = (run: typeof generateText) =>
        run({
          model: toolCallThenText(call),
          tools: hostile as { weather: typeof weather },
          stopWhen: stepCountIs(2),
          prompt: 'x',
        }).then(
          (result) => `resolved: ${result.text}`,
          (error: Error) => `rejected: ${error.message}`,
        );
      // the same outcome as the AI SDK alone gives, whatever it is
      expect(await outcome(patched.generateText)).toBe(await outcome(generateText));
    } finally {
      unpatch();
      instrumentation.disable();
    }
  });
});
