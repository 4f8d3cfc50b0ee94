import {
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
  isWrapped,
} from '@opentelemetry/instrumentation';
import { wrapTools } from '../adapters/langchain/wrap-tools.js';
import { isObserved } from '../internal/observed-marker.js';
import { guarded, type PatchContext } from './patch-context.js';
import { declaredRange, noticeUnsupported, type SupportedVersions } from './version-range.js';

/** `@langchain/core` 1.x, as the LangChain adapter. */
export const LANGCHAIN_VERSIONS: SupportedVersions = { from: '1.0.0', belowMajor: 2 };

const NAME = '@langchain/core';
const FILES = ['dist/tools/index.cjs', 'dist/tools/index.js'];
type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;

/*
 * Where the hook sits: `StructuredTool.prototype.call`, which `invoke` reaches for every tool
 * (`tool()`'s DynamicStructuredTool and DynamicTool call it as `super.call`) and which runs the
 * tool's own `_call`. A tool not yet observed is called as `wrapTools` would make it: a copy of
 * the tool (same class, same fields) whose `_call` is observed, made for that call, so the span,
 * the error policy and a reported failure's `ToolMessage` are those of the wrapped path.
 */
export function langchainModules(context: PatchContext): InstrumentationNodeModuleDefinition[] {
  const { wrap, unwrap, isEnabled, logger } = context;

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
          const observed = guarded(
            logger,
            'LangChain tool',
            () => wrapTools([this as never], context.listener())[0],
            this,
          );
          return run.apply(observed, args);
        },
    );
    return moduleExports;
  };
  const unpatch = (moduleExports: { StructuredTool?: { prototype: Record<string, unknown> } }) => {
    const prototype = moduleExports.StructuredTool?.prototype;
    if (prototype && isWrapped(prototype.call)) unwrap(prototype, 'call');
  };

  const range = [declaredRange(LANGCHAIN_VERSIONS)];
  const notice = noticeUnsupported(logger, NAME, LANGCHAIN_VERSIONS);
  return [
    new InstrumentationNodeModuleDefinition(
      NAME,
      range,
      undefined,
      undefined,
      FILES.map((file) => new InstrumentationNodeModuleFile(`${NAME}/${file}`, range, patch, unpatch)),
    ),
    new InstrumentationNodeModuleDefinition(
      NAME,
      ['*'],
      undefined,
      undefined,
      FILES.map((file) => new InstrumentationNodeModuleFile(`${NAME}/${file}`, ['*'], notice, () => {})),
    ),
  ];
}
