import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { logger } from '../../internal/logger.js';
import { observeCall } from '../../internal/observe-call.js';
import { markObserved } from '../../internal/observed-marker.js';
import { assertListener, describe } from '../../internal/validate.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { FRAMEWORK_MCP } from '../frameworks.js';
import { mcpAttributes } from './attributes.js';
import { mcpToolFailure, reportedResult } from './tool-error.js';

/*
 * Where the hook sits, and why there.
 *
 * McpServer keeps each tool as a `RegisteredTool` (a public type) in `_registeredTools`, and its
 * `tools/call` handler reads `tool.handler` on every call, after validating the arguments. Wrapping
 * that `tools/call` request handler instead would only see the result after McpServer has already
 * turned a thrown error into an `isError` text (the listener would never get the original error),
 * and it would also count unknown tools and invalid arguments as tool calls. Overriding the private
 * `executeToolHandler` would fail silently if it were renamed. So:
 *
 * - tools already registered: read once from `_registeredTools` (checked, a clear error if absent);
 * - tools registered later: the public `tool()` / `registerTool()` of this server instance are
 *   wrapped to instrument the `RegisteredTool` they return;
 * - `handler` of each `RegisteredTool` becomes an accessor that hands McpServer an observed
 *   version of the current handler, so `update({ callback })` and a direct assignment stay observed;
 * - `update()` is wrapped only to follow renames, so the listener always sees the current name.
 *
 * Task-based tools (`experimental.tasks.registerToolTask`, handlers that are objects) are not observed.
 */

const instrumentedServers = new WeakMap<object, ToolCallListener<unknown>>();
const instrumentedTools = new WeakSet<object>();

type ToolHandler = (...params: unknown[]) => unknown;

interface ServerInternals {
  _registeredTools?: unknown;
  tool?: unknown;
  registerTool?: unknown;
}

/**
 * Observes every tool call an `McpServer` handles: tools registered before and after this call.
 * Returns the same server; instrumenting it again is a no-op (combine listeners with
 * `ToolCallListeners.composite` instead).
 */
export function instrumentServer<Server extends McpServer, Context = unknown>(
  server: Server,
  listener: ToolCallListener<Context>,
): Server {
  const internals = server as unknown as ServerInternals;
  if (
    server === null ||
    typeof server !== 'object' ||
    typeof internals.tool !== 'function' ||
    typeof internals.registerTool !== 'function'
  ) {
    throw new TypeError(`instrumentServer: \`server\` must be an McpServer, got ${describe(server)}`);
  }
  assertListener(listener, 'instrumentServer');
  const registry = internals._registeredTools;
  if (registry === null || typeof registry !== 'object') {
    throw new TypeError(
      'instrumentServer: `server` has no `_registeredTools`: this @modelcontextprotocol/sdk version is not supported',
    );
  }
  const existing = instrumentedServers.get(server);
  if (existing !== undefined) {
    if (existing !== listener) {
      logger.warn('instrumentServer: this McpServer is already instrumented; the new listener is ignored');
    }
    return server;
  }
  const observing = listener as ToolCallListener<unknown>;
  instrumentedServers.set(server, observing);
  markObserved(server); // observed once: the zero-code instrumentation leaves it alone

  for (const [name, tool] of Object.entries(registry as Record<string, RegisteredTool>)) {
    instrumentTool(tool, name, observing);
  }
  for (const method of ['tool', 'registerTool'] as const) {
    const register = server[method] as (...args: unknown[]) => RegisteredTool;
    Object.defineProperty(server, method, {
      configurable: true,
      writable: true,
      value: function registerObserved(this: unknown, ...args: unknown[]): RegisteredTool {
        const registered = register.apply(this, args);
        instrumentTool(registered, args[0] as string, observing);
        return registered;
      },
    });
  }
  return server;
}

function instrumentTool(tool: RegisteredTool, registeredName: string, listener: ToolCallListener<unknown>): void {
  if (tool === null || typeof tool !== 'object' || instrumentedTools.has(tool)) return;
  instrumentedTools.add(tool);
  let name = registeredName;

  const update = tool.update;
  if (typeof update === 'function') {
    tool.update = function updateObserved(this: unknown, updates) {
      if (updates !== null && typeof updates === 'object' && typeof updates.name === 'string') name = updates.name;
      return update.call(this, updates);
    } as RegisteredTool['update'];
  }

  const observe = (handler: unknown): unknown => {
    // task handlers are objects ({ createTask, getTask, getTaskResult }): passed through
    if (typeof handler !== 'function') return handler;
    const raw = handler as ToolHandler;
    return function observedHandler(this: unknown, ...params: unknown[]) {
      // McpServer calls handler(args, extra), or handler(extra) for a tool without input schema
      const hasArgs = params.length >= 2;
      const extra = (hasArgs ? params[1] : params[0]) as
        | { requestId?: unknown; signal?: unknown; sessionId?: unknown }
        | undefined;
      const requestId = extra?.requestId;
      return observeCall(
        {
          definition: { name, description: tool.description, inputSchema: tool.inputSchema },
          metadata: { title: tool.title, annotations: tool.annotations, _meta: tool._meta },
          input: hasArgs ? params[0] : undefined,
          toolContext: {
            toolCallId: typeof requestId === 'string' || typeof requestId === 'number' ? String(requestId) : undefined,
            signal: extra?.signal instanceof AbortSignal ? extra.signal : undefined,
            framework: FRAMEWORK_MCP,
            attributes: mcpAttributes(extra?.sessionId),
          },
          run: () => raw.apply(this, params),
          failureOf: (result) => mcpToolFailure(name, result),
          report: reportedResult,
        },
        listener,
      );
    };
  };

  let observed = observe(tool.handler);
  Object.defineProperty(tool, 'handler', {
    configurable: true,
    enumerable: true,
    get: () => observed,
    set: (next: unknown) => {
      observed = observe(next);
    },
  });
}
