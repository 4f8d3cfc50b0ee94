import { InstrumentationNodeModuleDefinition, isWrapped } from '@opentelemetry/instrumentation';
import { guarded, type PatchContext } from '../../instrumentation/patch-context.js';
import { declaredRange, noticeUnsupported } from '../../internal/version-range.js';
import { GOOGLE_ADK_VERSIONS } from './manifest.js';
// framework-free: the adapter's per-call bookkeeping, which loads nothing of ADK
import { armCall, finishCall, standInsInRequest } from './observed-run.js';

const NAME = '@google/adk';
type AnyFunction = (this: unknown, ...args: unknown[]) => Promise<unknown>;
interface ToolCallbackParams {
  readonly tool?: unknown;
  readonly toolContext?: unknown;
}
type Prototype = Record<string, unknown>;
const METHODS = ['runBeforeToolCallback', 'runOnToolErrorCallback', 'runAfterToolCallback'] as const;

/*
 * Where the hook sits: `PluginManager.prototype`, whose `run*ToolCallback` methods every runner
 * calls around each tool call, whatever plugins it has (none too). They do what the plugin
 * `toolCallsPlugin` does (google-adk/tool-calls-plugin.ts), after the app's own plugins: a call no
 * plugin answered in `beforeToolCallback` is armed, so the tool's `runAsync` observes it inside ADK's
 * own span; `onToolErrorCallback`, when no plugin answered, answers with a text the listener
 * reported. A call the app's `toolCallsPlugin` armed already is observed once, by that plugin's listener.
 */
export function googleAdkModules(context: PatchContext): InstrumentationNodeModuleDefinition[] {
  const { wrap, unwrap, isEnabled, logger } = context;

  const patch = (moduleExports: { PluginManager?: { prototype: Prototype } }) => {
    const prototype = moduleExports.PluginManager?.prototype;
    if (!prototype || METHODS.some((method) => typeof prototype[method] !== 'function')) return moduleExports;
    wrap(
      prototype,
      'runBeforeToolCallback',
      (original) =>
        async function runBeforeToolCallback(this: unknown, params: ToolCallbackParams) {
          const answer = await (original as AnyFunction).call(this, params);
          // a plugin's answer stands for the call: the tool does not run
          if (answer === undefined && isEnabled()) {
            guarded(
              logger,
              'Google ADK tools',
              () => armCall(params?.tool, params?.toolContext, context.listener()),
              false,
            );
          }
          return answer;
        },
    );
    // a frozen tool: a stand-in in the request's toolsDict, when no plugin answered for the model
    if (typeof prototype.runBeforeModelCallback === 'function') {
      wrap(
        prototype,
        'runBeforeModelCallback',
        (original) =>
          async function runBeforeModelCallback(this: unknown, params: { readonly llmRequest?: unknown }) {
            const answer = await (original as AnyFunction).call(this, params);
            if (answer === undefined && isEnabled()) standInsInRequest(params?.llmRequest);
            return answer;
          },
      );
    }
    wrap(
      prototype,
      'runOnToolErrorCallback',
      (original) =>
        async function runOnToolErrorCallback(this: unknown, params: ToolCallbackParams) {
          const answer = await (original as AnyFunction).call(this, params);
          const reported = finishCall(params?.toolContext);
          return answer === undefined && reported !== undefined ? { error: reported } : answer;
        },
    );
    wrap(
      prototype,
      'runAfterToolCallback',
      (original) =>
        async function runAfterToolCallback(this: unknown, params: ToolCallbackParams) {
          finishCall(params?.toolContext);
          return (original as AnyFunction).call(this, params);
        },
    );
    return moduleExports;
  };
  const unpatch = (moduleExports: { PluginManager?: { prototype: Prototype } }) => {
    const prototype = moduleExports.PluginManager?.prototype;
    if (!prototype) return;
    for (const method of [...METHODS, 'runBeforeModelCallback']) {
      if (isWrapped(prototype[method])) unwrap(prototype, method);
    }
  };

  return [
    new InstrumentationNodeModuleDefinition(NAME, [declaredRange(GOOGLE_ADK_VERSIONS)], patch, unpatch),
    new InstrumentationNodeModuleDefinition(NAME, ['*'], noticeUnsupported(logger, NAME, GOOGLE_ADK_VERSIONS)),
  ];
}
