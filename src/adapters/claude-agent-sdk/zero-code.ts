import type { CanUseTool } from '@anthropic-ai/claude-agent-sdk';
import { InstrumentationNodeModuleDefinition, isWrapped } from '@opentelemetry/instrumentation';
import { guarded, type PatchContext } from '../../instrumentation/patch-context.js';
import { patchableExports } from '../../instrumentation/patchable-exports.js';
import { switchableListener } from '../../instrumentation/switchable-listener.js';
import { forwardingObject } from '../../internal/forwarding-object.js';
import { isObserved } from '../../internal/observed-marker.js';
import { declaredRange, noticeUnsupported } from '../../internal/version-range.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { instrumentServer } from '../mcp/instrument-server.js';
import { CLAUDE_AGENT_SDK_VERSIONS } from './manifest.js';
import { onQueryEnd } from './query-end.js';
import { type ToolCallHooks, toolCallHooks } from './tool-call-hooks.js';

const NAME = '@anthropic-ai/claude-agent-sdk';
type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;
type Hooks = Record<string, unknown>;

/*
 * Where the hook sits: the `query` export. Its `options` get, in a stand-in (forwarding-object.ts:
 * every other option is read on the app's object), `hooks` with this package's tool-call hooks
 * after the app's own matchers of each event (a stand-in for the app's hooks record too, so its
 * other events are its own). One hooks object per query, whose calls still open end with the query
 * (query-end.ts: its messages end or fail, or the app closes it): a call that no hook settles (a
 * denial that interrupts the query, an abort, a loop left early) still ends, and nothing of it is
 * kept. A query whose hooks already hold `toolCallHooks` (an app that observes explicitly) is left
 * alone. The app's `canUseTool`, if any, is observed through those hooks (its permission
 * decisions, permission-decisions.ts). Each SDK MCP server of `options.mcpServers` (an in-process
 * `McpServer`, the SDK's bundled copy: recognised by shape) not yet instrumented is passed to
 * `instrumentServer`: its calls carry the tool_use id and join the hooks' span (one span per call,
 * the tool body under it), and a server the app instrumented itself is observed by that only.
 * This file loads the adapters, which import only types of the SDK.
 */
export function claudeAgentSdkModules(context: PatchContext): InstrumentationNodeModuleDefinition[] {
  const { wrap, unwrap, isEnabled, logger } = context;
  // hooks and servers outlive a disable(): a listener that then does nothing, read at each call
  const listener = switchableListener(isEnabled, context.listener);

  const observedOptions = (options: unknown, hooks: ToolCallHooks): unknown => {
    if (options !== undefined && (options === null || typeof options !== 'object')) return options;
    const given = (options ?? {}) as { hooks?: unknown; mcpServers?: unknown; canUseTool?: unknown };
    instrumentSdkServers(given.mcpServers, listener);
    const appHooks = given.hooks;
    if (appHooks !== undefined && (appHooks === null || typeof appHooks !== 'object')) return options;
    if (observesToolCalls(appHooks as Hooks | undefined)) return options;
    const added = new Map<string, unknown>();
    for (const [event, matchers] of Object.entries(hooks)) {
      const own = (appHooks as Hooks | undefined)?.[event];
      added.set(event, Array.isArray(own) ? [...own, ...matchers] : matchers);
    }
    const merged = forwardingObject((appHooks ?? {}) as object, added);
    const replaced = new Map<string, unknown>([['hooks', merged]]);
    const { canUseTool } = given;
    if (typeof canUseTool === 'function') replaced.set('canUseTool', hooks.canUseTool(canUseTool as CanUseTool));
    return forwardingObject(given as object, replaced);
  };

  /** The query's params with the hooks added, or the params as given (nothing to add). */
  const observedParams = (params: unknown, hooks: ToolCallHooks): unknown => {
    if (params === null || typeof params !== 'object') return params;
    return guarded(
      logger,
      'Claude Agent SDK query',
      () => {
        const { options } = params as { options?: unknown };
        const observed = observedOptions(options, hooks);
        return observed === options ? params : forwardingObject(params, new Map([['options', observed]]));
      },
      params,
    );
  };

  const patch = (moduleExports: { query?: AnyFunction }) => {
    const target = patchableExports(moduleExports, ['query']);
    if (typeof target.query !== 'function') return moduleExports;
    wrap(
      target,
      'query',
      (original) =>
        function query(this: unknown, ...args: unknown[]) {
          if (!isEnabled()) return (original as AnyFunction).call(this, ...args);
          const hooks = toolCallHooks(listener);
          const params = observedParams(args[0], hooks);
          const running = (original as AnyFunction).call(this, params, ...args.slice(1));
          // our hooks are in it: its calls still open end with it
          if (params !== args[0]) {
            guarded(
              logger,
              'Claude Agent SDK query',
              () => onQueryEnd(running, () => void hooks.endOpenCalls()),
              undefined,
            );
          }
          return running;
        },
    );
    return target;
  };
  const unpatch = (moduleExports: { query?: AnyFunction }) => {
    const target = patchableExports(moduleExports, ['query']);
    if (isWrapped(target.query)) unwrap(target, 'query');
  };

  const range = [declaredRange(CLAUDE_AGENT_SDK_VERSIONS)];
  return [
    new InstrumentationNodeModuleDefinition(NAME, range, patch, unpatch),
    new InstrumentationNodeModuleDefinition(NAME, ['*'], noticeUnsupported(logger, NAME, CLAUDE_AGENT_SDK_VERSIONS)),
  ];
}

/** Whether the app's hooks already hold this package's tool-call hooks (their callbacks are marked). */
function observesToolCalls(hooks: Hooks | undefined): boolean {
  const matchers = hooks?.PreToolUse;
  if (!Array.isArray(matchers)) return false;
  return matchers.some((matcher) => {
    const callbacks = (matcher as { hooks?: unknown } | null)?.hooks;
    return Array.isArray(callbacks) && callbacks.some((callback) => isObserved(callback));
  });
}

/**
 * The in-process MCP servers of `mcpServers` (`createSdkMcpServer()`: `{ type: 'sdk', instance }`),
 * instrumented unless already: the SDK bundles its own copy of `McpServer`, which no module hook
 * sees, so it is recognised by shape (what `instrumentServer` itself requires).
 */
function instrumentSdkServers(servers: unknown, listener: ToolCallListener<unknown>): void {
  if (servers === null || typeof servers !== 'object') return;
  for (const config of Object.values(servers)) {
    const { type, instance } = (config ?? {}) as { type?: unknown; instance?: unknown };
    if (type !== 'sdk' || !isMcpServerShape(instance) || isObserved(instance)) continue;
    instrumentServer(instance as never, listener);
  }
}

function isMcpServerShape(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const server = value as { registerTool?: unknown; connect?: unknown; _registeredTools?: unknown };
  return (
    typeof server.registerTool === 'function' &&
    typeof server.connect === 'function' &&
    server._registeredTools !== null &&
    typeof server._registeredTools === 'object'
  );
}
