import type { ToolMessage } from '@langchain/core/messages';
import {
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
  isWrapped,
} from '@opentelemetry/instrumentation';
import { guarded, type PatchContext } from '../../instrumentation/patch-context.js';
import { isObserved } from '../../internal/observed-marker.js';
import { standInCache } from '../../internal/stand-in-cache.js';
import { declaredRange, noticeUnsupported } from '../../internal/version-range.js';
import { LANGCHAIN_VERSIONS } from './manifest.js';
import { observedTool } from './observed-tool.js';
import { observingRejection } from './rejected-input.js';
import type { LoadToolMessage } from './tool-message.js';

const NAME = '@langchain/core';
const FILES = ['dist/tools/index.cjs', 'dist/tools/index.js'];
/** Where `ToolMessage` is defined; `dist/tools/index` imports it, so it has loaded before the tools. */
const MESSAGE_FILES = ['dist/messages/tool.cjs', 'dist/messages/tool.js'];
type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;

/*
 * Where the hook sits: `StructuredTool.prototype.call`, which `invoke` reaches for every tool
 * (`tool()`'s DynamicStructuredTool and DynamicTool call it as `super.call`) and which runs the
 * tool's own `_call`. A tool not yet observed is called through the stand-in `wrapTools` makes for
 * it (the tool's `_call` observed and run on the tool itself), so the span, the error policy and a
 * reported failure's `ToolMessage` are those of the wrapped path. The stand-in is made once per tool
 * and listener, and the tool itself is never changed: state it keeps across calls, its `#private`
 * fields and its identity are its own, and `disable()` leaves nothing behind on it.
 * The `ToolMessage` of a reported failure is the class of the LangChain the app loaded, taken from
 * its module as it loads: this file imports nothing of LangChain's, so a bundle of the
 * instrumentation needs no LangChain.
 */
export function langchainModules(context: PatchContext): InstrumentationNodeModuleDefinition[] {
  const { wrap, unwrap, isEnabled, logger } = context;
  // by listener: a new config (a new listener) makes new stand-ins, the old ones go with the old listener
  const standIns = standInCache<object, object>();
  let loadedToolMessage: typeof ToolMessage | undefined;
  const toolMessage: LoadToolMessage = async () => loadedToolMessage;

  const standInFor = (tool: object): object => {
    const listener = context.listener();
    return standIns(listener, tool, () => observedTool(tool as never, listener, toolMessage) as unknown as object);
  };

  const patch = (moduleExports: { StructuredTool?: { prototype: Record<string, unknown> } }) => {
    const prototype = moduleExports.StructuredTool?.prototype;
    if (!prototype || typeof prototype.call !== 'function') return moduleExports;
    wrap(
      prototype,
      'call',
      (original) =>
        function call(this: { _call?: unknown }, ...args: unknown[]) {
          const run = original as AnyFunction;
          if (!isEnabled() || isObserved(this._call)) return run.apply(this, args);
          const standIn = guarded(logger, 'LangChain tool', () => standInFor(this), this);
          if (standIn === this) return run.apply(this, args);
          // the stand-in's `call` is not the one running here: a rejected input is observed around it
          const name = String((this as { name?: unknown }).name);
          return observingRejection(name, context.listener(), toolMessage, args[0], args[1], () =>
            Promise.resolve(run.apply(standIn, args)),
          );
        },
    );
    return moduleExports;
  };
  const unpatch = (moduleExports: { StructuredTool?: { prototype: Record<string, unknown> } }) => {
    const prototype = moduleExports.StructuredTool?.prototype;
    if (prototype && isWrapped(prototype.call)) unwrap(prototype, 'call');
  };

  const keepToolMessage = (moduleExports: { ToolMessage?: typeof ToolMessage }) => {
    if (typeof moduleExports.ToolMessage === 'function') loadedToolMessage = moduleExports.ToolMessage;
    return moduleExports;
  };

  const range = [declaredRange(LANGCHAIN_VERSIONS)];
  const notice = noticeUnsupported(logger, NAME, LANGCHAIN_VERSIONS);
  return [
    new InstrumentationNodeModuleDefinition(NAME, range, undefined, undefined, [
      ...MESSAGE_FILES.map(
        (file) => new InstrumentationNodeModuleFile(`${NAME}/${file}`, range, keepToolMessage, () => {}),
      ),
      ...FILES.map((file) => new InstrumentationNodeModuleFile(`${NAME}/${file}`, range, patch, unpatch)),
    ]),
    new InstrumentationNodeModuleDefinition(
      NAME,
      ['*'],
      undefined,
      undefined,
      FILES.map((file) => new InstrumentationNodeModuleFile(`${NAME}/${file}`, ['*'], notice, () => {})),
    ),
  ];
}
