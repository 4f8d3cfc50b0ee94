import { createRequire } from 'node:module';
import { ToolCallsInstrumentation } from 'otel-tool-calls/instrumentation';
import { ATTR_GEN_AI_TOOL_CALL_ID } from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestTelemetry } from '../helpers/otel-sdk.js';

// LangChain's CommonJS tools module, as require-in-the-middle hands it to the patch
const langchainTools = createRequire(import.meta.url)(
  '@langchain/core/tools',
) as typeof import('@langchain/core/tools');

// its CommonJS messages module (what `dist/messages/tool.cjs` exports, `ToolMessage`, it exports too)
const langchainMessages = createRequire(import.meta.url)(
  '@langchain/core/messages',
) as typeof import('@langchain/core/messages');

/**
 * The instrumentation's patches of `@langchain/core/dist/messages/tool.cjs` and `dist/tools/index.cjs`,
 * applied as InstrumentationBase applies them: in the order LangChain loads them.
 */
function patchLangChain(instrumentation: ToolCallsInstrumentation): () => void {
  const files = instrumentation
    .getModuleDefinitions()
    .find((definition) => definition.name === '@langchain/core' && definition.supportedVersions[0] !== '*')?.files;
  const messages = files?.find((candidate) => candidate.name.endsWith('/dist/messages/tool.cjs'));
  const tools = files?.find((candidate) => candidate.name.endsWith('/dist/tools/index.cjs'));
  if (messages === undefined || tools === undefined) throw new Error("no patch for @langchain/core's tools");
  messages.patch(langchainMessages);
  tools.patch(langchainTools);
  return () => tools.unpatch(langchainTools);
}

/** A tool class with a `#private` key and a counter; `receivers` keeps each object LangChain's `call` ran on. */
class Inventory extends langchainTools.StructuredTool {
  readonly #apiKey: string;
  name = 'inventory';
  description = 'Stock levels';
  schema = z.object({ sku: z.string() });
  lookups = 0;
  readonly receivers = new Set<object>();

  constructor(apiKey: string) {
    super();
    this.#apiKey = apiKey;
  }

  // LangChain's `call` serializes the tool it runs on for the callbacks (when there are some)
  override toJSON() {
    this.receivers.add(this);
    return super.toJSON();
  }

  async _call({ sku }: { sku: string }): Promise<string> {
    this.lookups++;
    return `${sku}: ${this.#apiKey.length} (lookup ${this.lookups})`;
  }
}

describe('ToolCallsInstrumentation: LangChain tools observed in place', () => {
  it('observes a tool through one stand-in per listener, not a copy per call: its state is its own, nothing is left on it', async () => {
    const telemetry = createTestTelemetry();
    const instrumentation = new ToolCallsInstrumentation({ enabled: false });
    instrumentation.setTracerProvider(telemetry.tracerProvider);
    instrumentation.enable();
    const unpatch = patchLangChain(instrumentation);
    try {
      const inventory = new Inventory('key-42');
      const ownKeys = Reflect.ownKeys(inventory);
      const config = { callbacks: [{ handleToolStart: () => {} }] };

      const outputs: unknown[] = [];
      for (const id of ['call_1', 'call_2', 'call_3']) {
        const message = await inventory.invoke(
          { name: 'inventory', args: { sku: 'ab' }, id, type: 'tool_call' },
          config,
        );
        outputs.push(message.content);
      }
      instrumentation.disable();
      const unobserved = await inventory.invoke({ sku: 'ab' }, config);

      expect(outputs).toEqual(['ab: 6 (lookup 1)', 'ab: 6 (lookup 2)', 'ab: 6 (lookup 3)']);
      expect(unobserved).toBe('ab: 6 (lookup 4)');
      expect(telemetry.spans().map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID])).toEqual([
        'call_1',
        'call_2',
        'call_3',
      ]);
      // the three observed calls ran on one stand-in, the unobserved one on the tool itself
      expect(inventory.receivers.size).toBe(2);
      expect(inventory.receivers.has(inventory)).toBe(true);
      expect(Reflect.ownKeys(inventory)).toEqual(ownKeys);
    } finally {
      unpatch();
    }
  });

  it("reports a failure as LangChain's own ToolMessage (status 'error'), its class taken from the module LangChain loaded", async () => {
    const telemetry = createTestTelemetry();
    const instrumentation = new ToolCallsInstrumentation({ enabled: false, errorPolicy: 'report' });
    instrumentation.setTracerProvider(telemetry.tracerProvider);
    instrumentation.enable();
    const unpatch = patchLangChain(instrumentation);
    try {
      const failing = langchainTools.tool(
        () => {
          throw new Error('warehouse offline');
        },
        { name: 'inventory', description: 'Stock levels', schema: z.object({ sku: z.string() }) },
      );
      const message = await failing.invoke({ name: 'inventory', args: { sku: 'ab' }, id: 'call_9', type: 'tool_call' });

      expect(message).toBeInstanceOf(langchainMessages.ToolMessage);
      expect({ status: message.status, content: message.content, id: message.tool_call_id }).toEqual({
        status: 'error',
        content: "Tool 'inventory' failed: warehouse offline",
        id: 'call_9',
      });
    } finally {
      unpatch();
      instrumentation.disable();
    }
  });
});
