import { types } from 'node:util';
import type { MeterProvider, TracerProvider } from '@opentelemetry/api';
import {
  InstrumentationBase,
  type InstrumentationModuleDefinition,
  isWrapped,
  type ShimWrapped,
} from '@opentelemetry/instrumentation';
import { aiSdkModules } from '../adapters/ai-sdk/zero-code.js';
import { aiSdkMcpModules } from '../adapters/ai-sdk-mcp/zero-code.js';
import { anthropicModules } from '../adapters/anthropic/zero-code.js';
import { bedrockAgentRuntimeModules } from '../adapters/bedrock-agent-runtime/zero-code.js';
import { claudeAgentSdkModules } from '../adapters/claude-agent-sdk/zero-code.js';
import { genkitModules } from '../adapters/genkit/zero-code.js';
import { googleAdkModules } from '../adapters/google-adk/zero-code.js';
import { googleGenaiModules } from '../adapters/google-genai/zero-code.js';
import { langchainModules } from '../adapters/langchain/zero-code.js';
import { llamaindexModules } from '../adapters/llamaindex/zero-code.js';
import { mcpModules } from '../adapters/mcp/zero-code.js';
import { openaiModules } from '../adapters/openai/zero-code.js';
import { openaiAgentsModules } from '../adapters/openai-agents/zero-code.js';
import { openrouterModules } from '../adapters/openrouter/zero-code.js';
import { piAgentCoreModules } from '../adapters/pi-agent-core/zero-code.js';
import { assertSupportedVersion } from '../internal/optional-package.js';
import { OpenTelemetryToolCallListener } from '../otel/opentelemetry-tool-call-listener.js';
import type { ToolCallListener } from '../tool-call-listener.js';
import { VERSION } from '../version.js';
import { CommonJsSubpathHooks } from './commonjs-subpaths.js';
import { hookFrameworkModulesOnce } from './esm-loader-hook.js';
import type { PatchContext } from './patch-context.js';
import type { ToolCallsInstrumentationConfig } from './types.js';

/**
 * An OpenTelemetry instrumentation that observes, as they load, the tool calls of every framework
 * that docs/zero-code.md lists (each adapter's but Mastra's), through the same adapters as the wrapped
 * path (`wrapTools`, `instrumentServer`, `instrumentClient`): the same `execute_tool` spans and
 * metrics, with no change to the app's code. What an adapter already observes is left alone.
 *
 * @example
 * const sdk = new NodeSDK({ instrumentations: [new ToolCallsInstrumentation()] });
 * sdk.start();
 */
export class ToolCallsInstrumentation extends InstrumentationBase<ToolCallsInstrumentationConfig> {
  // `declare`: InstrumentationBase calls init() and enable() from its constructor, before fields initialize
  declare private observing: OpenTelemetryToolCallListener | undefined;
  declare private givenTracerProvider: TracerProvider | undefined;
  declare private givenMeterProvider: MeterProvider | undefined;
  declare private subpathHooks: CommonJsSubpathHooks;

  constructor(config: ToolCallsInstrumentationConfig = {}) {
    // package.json leaves the range open (optional-package.ts): an older copy is refused here, clearly
    assertSupportedVersion('@opentelemetry/instrumentation', 'ToolCallsInstrumentation');
    super('otel-tool-calls', VERSION, config);
    // an invalid listener option is a TypeError here, as for the listener itself
    this.listener();
  }

  protected init(): InstrumentationModuleDefinition[] {
    const context: PatchContext = {
      listener: () => this.listener(),
      isEnabled: () => this.isEnabled(),
      wrap: (nodule, name, wrapper) => this._wrap(nodule, name, wrapper),
      unwrap: (nodule, name) => unwrapExport(nodule, name, this._unwrap),
      logger: this._diag,
    };
    const mcp = mcpModules(context);
    const llamaindex = llamaindexModules(context);
    this.subpathHooks = new CommonJsSubpathHooks([...mcp.commonJsSubpaths, ...llamaindex.commonJsSubpaths], this._diag);
    return [
      ...aiSdkModules(context),
      ...mcp.definitions,
      ...langchainModules(context),
      ...openaiAgentsModules(context),
      ...anthropicModules(context),
      ...claudeAgentSdkModules(context),
      ...googleAdkModules(context),
      ...llamaindex.definitions,
      ...genkitModules(context),
      ...openaiModules(context),
      ...aiSdkMcpModules(context),
      ...googleGenaiModules(context),
      ...piAgentCoreModules(context),
      ...openrouterModules(context),
      ...bedrockAgentRuntimeModules(context),
    ];
  }

  override enable(): void {
    super.enable();
    this.subpathHooks.enable();
    // ES modules: NodeSDK and @vercel/otel register no loader hook (a framework imported would go unpatched)
    hookFrameworkModulesOnce(import.meta.url);
  }

  override disable(): void {
    super.disable();
    this.subpathHooks.disable();
  }

  override setConfig(config: ToolCallsInstrumentationConfig = {}): void {
    super.setConfig(config);
    this.observing = undefined;
  }

  override setTracerProvider(tracerProvider: TracerProvider): void {
    super.setTracerProvider(tracerProvider);
    this.givenTracerProvider = tracerProvider;
    this.observing = undefined;
  }

  override setMeterProvider(meterProvider: MeterProvider): void {
    super.setMeterProvider(meterProvider);
    this.givenMeterProvider = meterProvider;
    this.observing = undefined;
  }

  /** The listener every patch observes through, built from the config on first use. */
  private listener(): ToolCallListener<unknown> {
    if (this.observing === undefined) {
      const { enabled: _enabled, ...options } = this.getConfig();
      this.observing = new OpenTelemetryToolCallListener({
        ...options,
        tracerProvider: options.tracerProvider ?? this.givenTracerProvider,
        meterProvider: options.meterProvider ?? this.givenMeterProvider,
      });
    }
    return this.observing as ToolCallListener<unknown>;
  }
}

/**
 * `_unwrap`, except on an ESM namespace (import-in-the-middle's proxy): there `_wrap` wrapped a
 * copy and set the wrapper on the namespace, and `_unwrap` sets the current value (the wrapper)
 * back; the original is put back instead.
 */
function unwrapExport<Nodule extends object>(
  nodule: Nodule,
  name: keyof Nodule,
  unwrap: (nodule: Nodule, name: keyof Nodule) => void,
): void {
  const current = nodule[name];
  if (types.isProxy(nodule) && isWrapped(current)) {
    Object.defineProperty(nodule, name, { value: (current as unknown as ShimWrapped).__original });
  } else {
    unwrap(nodule, name);
  }
}
