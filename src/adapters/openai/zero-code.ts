import {
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
  isWrapped,
} from '@opentelemetry/instrumentation';
import { guarded, type PatchContext } from '../../instrumentation/patch-context.js';
import { forwardingObject } from '../../internal/forwarding-object.js';
import { standInCache } from '../../internal/stand-in-cache.js';
import { declaredRange, noticeUnsupported } from '../../internal/version-range.js';
import { OPENAI_VERSIONS } from './manifest.js';
import { isObservedShape, observedTool } from './observed-tool.js';
import { runnableShapeOf } from './runnable-tools.js';
import { watchRefusals } from './runner-refusals.js';

const NAME = 'openai';
type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;
type Prototype = Record<string, unknown>;

/*
 * Where the hook sits: `Completions.prototype.runTools` of the chat resource
 * (`client.chat.completions.runTools(body)`). The tools of `body.tools` the runner would call are
 * replaced by their stand-ins (made once per tool and listener), in a stand-in for `body` that reads
 * everything else on the app's object; the app's body and tools are unchanged. The runner it returns
 * is watched from the start for the calls it answers itself (an unknown name), before its first request
 * (the runner starts on a timer): zero-code sees those even in a first turn, `wrapTools` only once a
 * wrapped tool ran.
 */
export function openaiModules(context: PatchContext): InstrumentationNodeModuleDefinition[] {
  const { wrap, unwrap, isEnabled, logger } = context;
  const standIns = standInCache<object, unknown>();

  const observedBody = (body: unknown): unknown => {
    if (!isEnabled() || body === null || typeof body !== 'object') return body;
    const { tools } = body as { tools?: unknown };
    if (!Array.isArray(tools)) return body;
    return guarded(
      logger,
      'openai runTools',
      () => {
        const listener = context.listener();
        const replaced = tools.map((tool) => {
          const shape = runnableShapeOf(tool);
          if (shape === undefined || isObservedShape(shape)) return tool;
          return standIns(listener, tool as object, () => observedTool(tool as object, shape, listener));
        });
        if (replaced.every((tool, index) => tool === tools[index])) return body;
        return forwardingObject(body, new Map([['tools', replaced]]));
      },
      body,
    );
  };

  const patchCompletions = (moduleExports: { Completions?: { prototype: Prototype } }) => {
    const prototype = moduleExports.Completions?.prototype;
    if (!prototype || typeof prototype.runTools !== 'function') return moduleExports;
    wrap(
      prototype,
      'runTools',
      (original) =>
        function runTools(this: unknown, ...args: unknown[]) {
          const runner = (original as AnyFunction).call(this, observedBody(args[0]), ...args.slice(1));
          if (isEnabled()) watchRefusals(runner, context.listener());
          return runner;
        },
    );
    return moduleExports;
  };
  const unpatchCompletions = (moduleExports: { Completions?: { prototype: Prototype } }) => {
    const prototype = moduleExports.Completions?.prototype;
    if (prototype && isWrapped(prototype.runTools)) unwrap(prototype, 'runTools');
  };

  const range = [declaredRange(OPENAI_VERSIONS)];
  const files = ['js', 'mjs'].map(
    (extension) =>
      new InstrumentationNodeModuleFile(
        `${NAME}/resources/chat/completions/completions.${extension}`,
        range,
        patchCompletions,
        unpatchCompletions,
      ),
  );
  return [
    new InstrumentationNodeModuleDefinition(NAME, range, undefined, undefined, files),
    new InstrumentationNodeModuleDefinition(NAME, ['*'], noticeUnsupported(logger, NAME, OPENAI_VERSIONS)),
  ];
}
