import { InstrumentationNodeModuleDefinition, isWrapped } from '@opentelemetry/instrumentation';
import { guarded, type PatchContext } from '../../instrumentation/patch-context.js';
import { forwardingObject } from '../../internal/forwarding-object.js';
import { declaredRange, noticeUnsupported } from '../../internal/version-range.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { GOOGLE_GENAI_VERSIONS } from './manifest.js';
import { observedToolList } from './observed-tool-list.js';

const NAME = '@google/genai';
type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;
type Constructor = new (...args: unknown[]) => { models?: unknown };

/** The two calls of `ai.models` that run automatic function calling. */
const GENERATE = ['generateContent', 'generateContentStream'] as const;

/*
 * Where the hook sits: `ai.models.generateContent` and `generateContentStream` are functions each
 * `Models` instance gets in its constructor (not methods of its prototype), so the main module's
 * `GoogleGenAI` export is replaced by a subclass whose constructor replaces them on its `models` (a
 * chat's `sendMessage` calls the same two). Each hands the original a stand-in for `params` whose
 * `config.tools` has the CallableTools in their stand-ins, one group (observed-tool-list.ts), made
 * once per `config.tools` array and listener (a chat's config is the same at every message; an array
 * whose entries changed gets new ones): the app's params, config and tools are unchanged.
 * `instanceof GoogleGenAI` holds for what the subclass makes.
 */
export function googleGenaiModules(context: PatchContext): InstrumentationNodeModuleDefinition[] {
  const { wrap, unwrap, isEnabled, logger } = context;
  const observedLists = observedListCache();

  const observedParams = (params: unknown): unknown => {
    if (!isEnabled() || params === null || typeof params !== 'object') return params;
    const config = (params as { config?: unknown }).config;
    const tools = config !== null && typeof config === 'object' ? (config as { tools?: unknown }).tools : undefined;
    if (!Array.isArray(tools)) return params;
    return guarded(
      logger,
      'Google Gen AI automatic function calling',
      () => {
        const replaced = observedLists(context.listener(), tools);
        if (replaced.every((tool, index) => tool === tools[index])) return params;
        const observedConfig = forwardingObject(config as object, new Map([['tools', replaced]]));
        return forwardingObject(params, new Map([['config', observedConfig]]));
      },
      params,
    );
  };

  const observeModels = (models: unknown): void => {
    if (models === null || typeof models !== 'object') return;
    for (const name of GENERATE) {
      const generate = (models as Record<string, unknown>)[name];
      if (typeof generate !== 'function') continue;
      (models as Record<string, unknown>)[name] = function generateObserved(this: unknown, ...args: unknown[]) {
        return (generate as AnyFunction).call(this, observedParams(args[0]), ...args.slice(1));
      };
    }
  };

  const patch = (moduleExports: { GoogleGenAI?: unknown }) => {
    if (typeof moduleExports.GoogleGenAI !== 'function') return moduleExports;
    wrap(
      moduleExports,
      'GoogleGenAI',
      (original) =>
        class GoogleGenAI extends (original as Constructor) {
          constructor(...args: unknown[]) {
            super(...args);
            guarded(logger, 'Google Gen AI client', () => observeModels(this.models), undefined);
          }
        },
    );
    return moduleExports;
  };
  const unpatch = (moduleExports: { GoogleGenAI?: unknown }) => {
    if (isWrapped(moduleExports.GoogleGenAI)) unwrap(moduleExports as Record<string, unknown>, 'GoogleGenAI');
  };

  return [
    new InstrumentationNodeModuleDefinition(NAME, [declaredRange(GOOGLE_GENAI_VERSIONS)], patch, unpatch),
    new InstrumentationNodeModuleDefinition(NAME, ['*'], noticeUnsupported(logger, NAME, GOOGLE_GENAI_VERSIONS)),
  ];
}

/** The observed list of each `config.tools` array per listener, made again when the array's entries changed. */
function observedListCache(): (listener: ToolCallListener<unknown>, tools: readonly unknown[]) => unknown[] {
  const byListener = new WeakMap<object, WeakMap<readonly unknown[], { entries: unknown[]; observed: unknown[] }>>();
  return (listener, tools) => {
    let lists = byListener.get(listener);
    if (lists === undefined) {
      lists = new WeakMap();
      byListener.set(listener, lists);
    }
    const made = lists.get(tools);
    if (made !== undefined && sameEntries(made.entries, tools)) return made.observed;
    const observed = observedToolList(tools, listener);
    lists.set(tools, { entries: [...tools], observed });
    return observed;
  };
}

function sameEntries(entries: readonly unknown[], tools: readonly unknown[]): boolean {
  return entries.length === tools.length && entries.every((entry, index) => entry === tools[index]);
}
