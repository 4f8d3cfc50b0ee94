import { ATTR_GEN_AI_TOOL_NAME } from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, root, runUnderRegister, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

/** An example, unmodified, under `--import tsx --import otel-tool-calls/register`, and without it. */
async function runExample(name: string) {
  const path = `${root}examples/${name}/main.ts`;
  const env = { NODE_OPTIONS: '--import tsx' };
  const [bare, registered] = [
    await runUnderRegister(path, { preload: 'none', env }),
    await runUnderRegister(path, { preload: 'import', env }),
  ];
  return { bare, registered };
}

/*
 * The examples observe their tools themselves (wrapTools, instrumentServer), some with a tracer
 * provider of their own (registered globally by the AI SDK and LangChain ones): under register each
 * call still has one span, theirs, where they send it, and the instrumentation adds one only for
 * what they leave unobserved (the MCP example's client).
 */
describe('zero-code: the examples, unmodified, under otel-tool-calls/register', () => {
  it('examples/ai-sdk: its own listener sends one span per call to its own tracer provider, as without register', async () => {
    const { bare, registered } = await runExample('ai-sdk');
    expect(registered.code).toBe(0);
    // its result and its span tree (printed from its own exporter), no second span in it
    expect(registered.stdout).toBe(bare.stdout);
    expect(registered.stdout).toContain('execute_tool getWeather gen_ai.tool.call.id=call_1');
    expect(toolSpans(registered)).toEqual([]);
  }, 60_000);

  it('examples/mcp: the server it instruments itself is left to it; its client gets one span per call', async () => {
    const { bare, registered } = await runExample('mcp');
    expect(registered.code).toBe(0);
    // the example's result lines and its own server spans (its tracer provider), unchanged
    expect(registered.stdout).toBe(bare.stdout);
    expect(toolSpans(registered).map((span) => span.attributes[ATTR_GEN_AI_TOOL_NAME])).toEqual([
      'weather',
      'forecast',
      'alerts',
    ]);
  }, 60_000);

  it('examples/langchain: one span per call, to its own tracer provider, as without register', async () => {
    const { bare, registered } = await runExample('langchain');
    expect(registered.code).toBe(0);
    expect(registered.stdout).toBe(bare.stdout);
    expect(registered.stdout).toContain('execute_tool search_docs OK gen_ai.tool.call.id=call_1');
    expect(toolSpans(registered)).toEqual([]);
  }, 60_000);

  it('examples/openai-agents: its wrapped tool is not observed a second time', async () => {
    const { bare, registered } = await runExample('openai-agents');
    expect(registered.code).toBe(0);
    // its one span goes to its own tracer provider, as without register; nothing is added
    expect(registered.stdout).toBe(bare.stdout);
    expect(toolSpans(registered)).toEqual([]);
  }, 60_000);
});
