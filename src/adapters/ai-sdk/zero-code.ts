import { InstrumentationNodeModuleDefinition, isWrapped } from '@opentelemetry/instrumentation';
import { guarded, type PatchContext } from '../../instrumentation/patch-context.js';
import { patchableExports } from '../../instrumentation/patchable-exports.js';
import { forwardingObject } from '../../internal/forwarding-object.js';
import { isObserved } from '../../internal/observed-marker.js';
import { declaredRange, noticeUnsupported } from '../../internal/version-range.js';
import { tellApprovalResponses } from './approvals.js';
import { AI_SDK_VERSIONS } from './manifest.js';
import { type ObservableOptions, repairReplacements } from './observe-tool-calls.js';
import { wrapTools } from './wrap-tools.js';

const FUNCTIONS = ['generateText', 'streamText'] as const;

type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;
interface AiExports {
  generateText?: AnyFunction;
  streamText?: AnyFunction;
  ToolLoopAgent?: { prototype: { prepareCall?: AnyFunction } };
}

/*
 * Where the hooks sit. `generateText` and `streamText` get their options' `tools` observed, through
 * a stand-in for the options (and one for the record) that reads everything else on the caller's. The
 * agent classes call the SDK's internal `generateText`/`streamText` (not the patched exports), with
 * the options their `prepareCall` builds from the constructor's settings and the call's: that is
 * where an agent's tools are observed, for `generate()` and `stream()` alike.
 */
export function aiSdkModules(context: PatchContext): InstrumentationNodeModuleDefinition[] {
  const { wrap, unwrap, isEnabled, logger } = context;

  const observedOptions = (options: unknown): unknown => {
    if (!isEnabled() || options === null || typeof options !== 'object') return options;
    const { tools } = options as { tools?: unknown };
    if (tools === null || typeof tools !== 'object') return options;
    return guarded(
      logger,
      'ai: tools',
      () => {
        const listener = context.listener();
        // the calls the SDK rejects before any tool runs (observed once: not where observeToolCalls did)
        const replaced = repairReplacements(options as ObservableOptions, listener);
        // the app's answers to approval requests (not where observeToolCalls told them already)
        if (replaced.size > 0) tellApprovalResponses(options, listener);
        const unobserved: Record<string, unknown> = {};
        let any = false;
        for (const [name, tool] of Object.entries(tools)) {
          const execute = (tool as { execute?: unknown } | null)?.execute;
          if (typeof execute === 'function' && !isObserved(execute)) {
            unobserved[name] = tool;
            any = true;
          }
        }
        if (any) {
          const observed: object = wrapTools(unobserved as never, listener);
          // stand-ins, not spreads: options that are a class instance (a getter for `model`) or that
          // inherit from defaults keep every property, and the record keeps its own (its keys, in order)
          replaced.set('tools', forwardingObject(tools, new Map(Object.entries(observed))));
        }
        return replaced.size === 0 ? options : forwardingObject(options, replaced);
      },
      options,
    );
  };

  const patch = (moduleExports: AiExports) => {
    const target = patchableExports(moduleExports, FUNCTIONS);
    for (const name of FUNCTIONS) {
      if (typeof target[name] !== 'function') continue;
      wrap(
        target,
        name,
        (original) =>
          // a `function`: `this` is passed on as the caller gave it
          function observedToolsCall(this: unknown, ...args: unknown[]) {
            return (original as AnyFunction).call(this, observedOptions(args[0]), ...args.slice(1));
          },
      );
    }
    const prototype = moduleExports.ToolLoopAgent?.prototype;
    if (prototype && typeof prototype.prepareCall === 'function') {
      wrap(
        prototype,
        'prepareCall',
        (original) =>
          function prepareCall(this: unknown, ...args: unknown[]) {
            const prepared = (original as AnyFunction).apply(this, args);
            return prepared instanceof Promise ? prepared.then(observedOptions) : observedOptions(prepared);
          },
      );
    }
    return target;
  };

  const unpatch = (moduleExports: AiExports) => {
    const target = patchableExports(moduleExports, FUNCTIONS);
    for (const name of FUNCTIONS) if (isWrapped(target[name])) unwrap(target, name);
    const prototype = moduleExports.ToolLoopAgent?.prototype;
    if (prototype && isWrapped(prototype.prepareCall)) unwrap(prototype, 'prepareCall');
  };

  return [
    new InstrumentationNodeModuleDefinition('ai', [declaredRange(AI_SDK_VERSIONS)], patch, unpatch),
    new InstrumentationNodeModuleDefinition('ai', ['*'], noticeUnsupported(logger, 'ai', AI_SDK_VERSIONS)),
  ];
}
