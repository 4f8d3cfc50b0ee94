import { InstrumentationNodeModuleDefinition, isWrapped } from '@opentelemetry/instrumentation';
import { guarded, type PatchContext } from '../../instrumentation/patch-context.js';
import { isObserved } from '../../internal/observed-marker.js';
import { standInCache } from '../../internal/stand-in-cache.js';
import { declaredRange, noticeUnsupported } from '../../internal/version-range.js';
import { OPENAI_AGENTS_VERSIONS } from './manifest.js';
import type { AgentsSdk } from './observe-sdk-failure.js';
import { observedTool as standInTool } from './observed-tool.js';

const NAMES = ['@openai/agents', '@openai/agents-core'];
type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;
interface AgentsModule {
  readonly Agent?: { prototype: Record<string, unknown> };
  readonly getCurrentSpan?: () => object | null;
  readonly getCurrentTrace?: () => object | null;
  readonly tool?: unknown;
}
interface FunctionToolLike {
  readonly type?: unknown;
  readonly invoke?: unknown;
}

/*
 * Where the hook sits: `Agent.prototype.getAllTools`, which the runner calls on every turn for the
 * tools it offers the model and runs. Each function tool not yet observed is replaced in that list
 * by its `wrapTool` stand-in (made once per tool and listener, so the runner sees one tool across
 * turns; a frozen tool too), which reads every property on the tool and runs its own `invoke`; the
 * agent's own `tools` are unchanged.
 * What the adapter reads of the SDK (`getCurrentSpan`) is taken from the module the hook is handed:
 * this file imports nothing of the SDK's, so a bundle of the instrumentation needs no `@openai/agents`.
 */
export function openaiAgentsModules(context: PatchContext): InstrumentationNodeModuleDefinition[] {
  const { wrap, unwrap, isEnabled, logger } = context;
  const standIns = standInCache<object, unknown>();

  const observedTool = (agents: AgentsSdk, tool: unknown): unknown => {
    const candidate = tool as FunctionToolLike | null;
    if (candidate === null || typeof candidate !== 'object' || candidate.type !== 'function') return tool;
    if (typeof candidate.invoke !== 'function' || isObserved(candidate.invoke)) return tool;
    const listener = context.listener();
    return standIns(listener, candidate, () => standInTool(candidate as never, listener, agents));
  };

  const patch = (moduleExports: AgentsModule) => {
    const prototype = moduleExports.Agent?.prototype;
    if (!prototype || typeof prototype.getAllTools !== 'function') return moduleExports;
    const { getCurrentSpan, getCurrentTrace, tool: functionTool } = moduleExports;
    if (typeof getCurrentSpan !== 'function') {
      logger.warn('OpenAI Agents tools: not observed (the SDK module has no getCurrentSpan)');
      return moduleExports;
    }
    const agents: AgentsSdk = { getCurrentSpan, getCurrentTrace, tool: functionTool };
    wrap(
      prototype,
      'getAllTools',
      (original) =>
        async function getAllTools(this: unknown, ...args: unknown[]) {
          const tools = await (original as AnyFunction).apply(this, args);
          if (!isEnabled() || !Array.isArray(tools)) return tools;
          return guarded(logger, 'OpenAI Agents tools', () => tools.map((tool) => observedTool(agents, tool)), tools);
        },
    );
    return moduleExports;
  };
  const unpatch = (moduleExports: AgentsModule) => {
    const prototype = moduleExports.Agent?.prototype;
    if (prototype && isWrapped(prototype.getAllTools)) unwrap(prototype, 'getAllTools');
  };

  const range = [declaredRange(OPENAI_AGENTS_VERSIONS)];
  return NAMES.flatMap((name) => [
    new InstrumentationNodeModuleDefinition(name, range, patch, unpatch),
    new InstrumentationNodeModuleDefinition(name, ['*'], noticeUnsupported(logger, name, OPENAI_AGENTS_VERSIONS)),
  ]);
}
