import { BasePlugin, type BaseTool, type Context } from '@google/adk';
import { assertListener } from '../../internal/validate.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { armCall, finishCall, standInsInRequest } from './observed-run.js';

/** Options of `toolCallsPlugin`. */
export interface ToolCallsPluginOptions {
  /**
   * The plugin's name: ADK refuses two plugins of one name in a runner.
   * @default 'otel-tool-calls'
   */
  readonly name?: string;
}

interface ToolCallParams {
  readonly tool: BaseTool;
  readonly toolArgs: Record<string, unknown>;
  readonly toolContext: Context;
}

/**
 * The ADK plugin `toolCallsPlugin` returns: every tool call the runner makes goes to its listener.
 * Its callbacks return nothing (ADK's own flow goes on), but for a failure the listener reported:
 * then `onToolErrorCallback` answers `{ error: text }`, ADK's own shape for a failed call, with the
 * listener's text.
 */
export class ToolCallsPlugin extends BasePlugin {
  readonly #listener: ToolCallListener<unknown>;

  constructor(listener: ToolCallListener<unknown>, name: string) {
    super(name);
    this.#listener = listener;
  }

  // a frozen tool is observed through a stand-in in the request's toolsDict (observed-run.ts)
  override async beforeModelCallback({ llmRequest }: { llmRequest: unknown }): Promise<undefined> {
    standInsInRequest(llmRequest);
    return undefined;
  }

  override async beforeToolCallback({ tool, toolContext }: ToolCallParams): Promise<undefined> {
    armCall(tool, toolContext, this.#listener);
    return undefined;
  }

  override async afterToolCallback({ toolContext }: ToolCallParams & { result: unknown }): Promise<undefined> {
    finishCall(toolContext);
    return undefined;
  }

  override async onToolErrorCallback({
    toolContext,
  }: ToolCallParams & { error: Error }): Promise<Record<string, unknown> | undefined> {
    const reported = finishCall(toolContext);
    return reported === undefined ? undefined : { error: reported };
  }
}

/**
 * An ADK plugin that reports every tool call of the runner to `listener`: one call per function
 * call the model makes, with its `gen_ai.tool.call.id` (`toolContext.functionCallId`), observed
 * inside ADK's own `execute_tool {tool}` span, which it joins (one span per call, with its status
 * set on failure). A failure the listener reports becomes the call's error response the model
 * reads (`{ error: text }`); one it rethrows is ADK's own (`{ error: message }`).
 *
 * @example
 * const runner = new InMemoryRunner({ agent, plugins: [toolCallsPlugin(new OpenTelemetryToolCallListener())] });
 */
export function toolCallsPlugin<Context = unknown>(
  listener: ToolCallListener<Context>,
  options: ToolCallsPluginOptions = {},
): ToolCallsPlugin {
  assertListener(listener, 'toolCallsPlugin');
  const name = options.name ?? 'otel-tool-calls';
  if (typeof name !== 'string' || name.length === 0) {
    throw new TypeError('toolCallsPlugin: `options.name` must be a non-empty string');
  }
  return new ToolCallsPlugin(listener as ToolCallListener<unknown>, name);
}
