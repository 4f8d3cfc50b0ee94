import type { RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { context } from '@opentelemetry/api';
import { type ObservedCall, observeCall } from '../../internal/observe-call.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import type { ToolDefinition } from '../../tool-callback.js';
import { FRAMEWORK_MCP } from '../frameworks.js';
import { SessionAttributes } from './attributes.js';
import { claudeToolUseCorrelation, claudeToolUseId } from './claude-tool-use-id.js';
import { httpPeerOf } from './http-peer.js';
import { extractTraceContext } from './propagation.js';
import { markToolRan } from './rejected-requests.js';
import { serverCall } from './remote-call.js';
import {
  type HandlerRequest,
  negotiatedVersion,
  observeToolFunction,
  onRename,
  type ToolFunction,
  type ToolRequestReader,
  transportOf,
} from './server-seam.js';
import { observedTaskHandler } from './task-tools.js';
import { mcpToolFailure, reportedResult } from './tool-error.js';

/*
 * Where the hook sits, and why there.
 *
 * McpServer keeps each tool as a `RegisteredTool` (a public type), and its `tools/call` handler reads,
 * on every call and after validating the arguments, the function to call from it (server-seam.ts
 * says which field on which SDK line). Wrapping that `tools/call` request handler instead would only
 * see the result after McpServer has already turned a thrown error into an `isError` text (the
 * listener would never get the original error), and it would also count unknown tools and invalid
 * arguments as tool calls (those are rejected-requests.ts's). Overriding the private
 * `executeToolHandler` would fail silently if it were renamed. So the field McpServer calls hands
 * it an observed version of the current function; each observed call runs in the context extracted
 * from the request's `_meta` (the client's span is its parent; the ambient context, e.g. the HTTP
 * request's span, is linked). `update()` is followed only for renames, so the listener always sees
 * the current name.
 *
 * Task-based tools (1.x `experimental.tasks.registerToolTask`, handlers that are objects): their
 * `createTask` is observed, the call settling with McpServer's answer (task-tools.ts).
 */

const instrumentedTools = new WeakSet<object>();

/** Observes every call of `tool` (registered as `registeredName` on the server whose low-level Server is `lowLevel`). */
export function observeServerTool(
  tool: RegisteredTool,
  registeredName: string,
  listener: ToolCallListener<unknown>,
  lowLevel: unknown,
): void {
  if (tool === null || typeof tool !== 'object' || instrumentedTools.has(tool)) return;
  instrumentedTools.add(tool);
  let name = registeredName;
  onRename(tool, (renamed) => {
    name = renamed;
  });
  let requestOf: ToolRequestReader;
  const session = new SessionAttributes();
  const describe = toolDescription();
  // the tool's current name (a rename follows), in a function made once
  const failureOf = (result: unknown) => mcpToolFailure(name, result);

  /** The call of `params` (what McpServer hands the function), observed with `run` as the tool. */
  const observeWith = (params: unknown[], run: () => unknown): unknown => {
    const request: HandlerRequest = requestOf(params);
    const peer = httpPeerOf(context.active());
    const { parent, links } = extractTraceContext(request.meta);
    const toolUseId = claudeToolUseId(request.meta);
    const described = describe(tool, name);
    const call: ObservedCall<unknown, unknown> = {
      definition: described.definition,
      metadata: described.metadata,
      input: request.input,
      toolContext: {
        // the JSON-RPC id is the request's, not the model's tool call id: it is remote.requestId
        toolCallId: toolUseId,
        correlation: claudeToolUseCorrelation(toolUseId),
        signal: request.signal,
        framework: FRAMEWORK_MCP,
        attributes: session.of(
          request.sessionId,
          request.protocolVersion ?? negotiatedVersion(lowLevel),
          transportOf(lowLevel),
          request.overHttp,
          peer,
        ),
        remote: serverCall(request.requestId, links),
      },
      run,
      failureOf,
      report: reportedResult,
    };
    // the listener's span starts in `parent`: the client's span when the request carried it
    return context.with(parent, observeCall, undefined, call, listener);
  };

  const observe = (fn: unknown): unknown => {
    // task handlers are objects ({ createTask, getTask, getTaskResult }): their createTask is observed (task-tools.ts)
    if (fn !== null && typeof fn === 'object') return observedTaskHandler(fn, observeWith);
    if (typeof fn !== 'function') return fn;
    const raw = fn as ToolFunction;
    return function observedHandler(this: unknown, ...params: unknown[]) {
      markToolRan(params);
      return observeWith(params, () => raw.apply(this, params));
    };
  };
  requestOf = observeToolFunction(tool, observe);
}

interface Described {
  readonly definition: Readonly<Required<ToolDefinition>>;
  readonly metadata: Readonly<Record<'title' | 'annotations' | '_meta', unknown>>;
}

/**
 * What the listener is told of a tool (its definition and metadata), made once and made again only
 * when `update()` changed one of its fields: compared at each call, so that it is always the current one.
 */
function toolDescription(): (tool: RegisteredTool, name: string) => Described {
  let last: Described | undefined;
  return (tool, name) => {
    const { description, inputSchema, title, annotations, _meta } = tool;
    if (
      last === undefined ||
      last.definition.name !== name ||
      last.definition.description !== description ||
      last.definition.inputSchema !== inputSchema ||
      last.metadata.title !== title ||
      last.metadata.annotations !== annotations ||
      last.metadata._meta !== _meta
    ) {
      last = {
        definition: Object.freeze({ name, description, inputSchema }) as Described['definition'],
        metadata: Object.freeze({ title, annotations, _meta }),
      };
    }
    return last;
  };
}
