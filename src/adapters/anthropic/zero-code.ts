import {
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
  isWrapped,
} from '@opentelemetry/instrumentation';
import { guarded, type PatchContext } from '../../instrumentation/patch-context.js';
import { forwardingObject } from '../../internal/forwarding-object.js';
import { isObserved } from '../../internal/observed-marker.js';
import { standInCache } from '../../internal/stand-in-cache.js';
import { declaredRange, noticeUnsupported } from '../../internal/version-range.js';
import { ANTHROPIC_SDK_VERSIONS } from './manifest.js';
import { isRunnableTool, observedTool, type ToolErrorOf } from './observed-tool.js';

const NAME = '@anthropic-ai/sdk';
type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;
type Prototype = Record<string, unknown>;

/*
 * Where the hook sits: `Messages.prototype.toolRunner` of the beta resource
 * (`client.beta.messages.toolRunner(params)`). The runnable tools of `params.tools` not yet observed
 * are replaced by their stand-ins (made once per tool and listener), in a stand-in for `params` that
 * reads everything else on the app's object (forwarding-object.ts); the app's params and tools are
 * unchanged. Tools added later with `runner.addTools()` are not observed (docs/zero-code.md).
 * The SDK's `ToolError` (what makes a report reach the model as `is_error: true`) is taken from the
 * SDK's own module when it loads: this file imports nothing of the SDK.
 */
export function anthropicModules(context: PatchContext): InstrumentationNodeModuleDefinition[] {
  const { wrap, unwrap, isEnabled, logger } = context;
  let toolError: ToolErrorOf | undefined;
  const standIns = standInCache<object, unknown>();

  const observed = (tool: unknown, makeError: ToolErrorOf): unknown => {
    if (!isRunnableTool(tool) || isObserved(tool.run)) return tool;
    const listener = context.listener();
    return standIns(listener, tool, () => observedTool(tool, listener, makeError));
  };

  const observedParams = (params: unknown): unknown => {
    const makeError = toolError;
    if (!isEnabled() || makeError === undefined || params === null || typeof params !== 'object') return params;
    const { tools } = params as { tools?: unknown };
    if (!Array.isArray(tools)) return params;
    return guarded(
      logger,
      'Anthropic tool runner',
      () => {
        const replaced = tools.map((tool) => observed(tool, makeError));
        if (replaced.every((tool, index) => tool === tools[index])) return params;
        return forwardingObject(params, new Map([['tools', replaced]]));
      },
      params,
    );
  };

  const patchMessages = (moduleExports: { Messages?: { prototype: Prototype } }) => {
    const prototype = moduleExports.Messages?.prototype;
    if (!prototype || typeof prototype.toolRunner !== 'function') return moduleExports;
    wrap(
      prototype,
      'toolRunner',
      (original) =>
        function toolRunner(this: unknown, ...args: unknown[]) {
          return (original as AnyFunction).call(this, observedParams(args[0]), ...args.slice(1));
        },
    );
    return moduleExports;
  };
  const unpatchMessages = (moduleExports: { Messages?: { prototype: Prototype } }) => {
    const prototype = moduleExports.Messages?.prototype;
    if (prototype && isWrapped(prototype.toolRunner)) unwrap(prototype, 'toolRunner');
  };
  const keepToolError = (moduleExports: { ToolError?: new (content: string) => Error }) => {
    const ToolError = moduleExports.ToolError;
    if (typeof ToolError === 'function') toolError = (text) => new ToolError(text);
    return moduleExports;
  };

  const range = [declaredRange(ANTHROPIC_SDK_VERSIONS)];
  const files = (extension: 'js' | 'mjs') => [
    new InstrumentationNodeModuleFile(`${NAME}/lib/tools/ToolError.${extension}`, range, keepToolError, () => {}),
    new InstrumentationNodeModuleFile(
      `${NAME}/resources/beta/messages/messages.${extension}`,
      range,
      patchMessages,
      unpatchMessages,
    ),
  ];
  return [
    new InstrumentationNodeModuleDefinition(NAME, range, undefined, undefined, [...files('js'), ...files('mjs')]),
    new InstrumentationNodeModuleDefinition(NAME, ['*'], noticeUnsupported(logger, NAME, ANTHROPIC_SDK_VERSIONS)),
  ];
}
