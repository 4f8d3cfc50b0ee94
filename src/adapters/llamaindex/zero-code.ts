import {
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
  isWrapped,
} from '@opentelemetry/instrumentation';
import type { CommonJsSubpath } from '../../instrumentation/commonjs-subpaths.js';
import { guarded, type PatchContext } from '../../instrumentation/patch-context.js';
import { isObserved } from '../../internal/observed-marker.js';
import { declaredRange, noticeUnsupported } from '../../internal/version-range.js';
import { LLAMAINDEX_VERSIONS } from './manifest.js';
// framework-free: the adapter's stand-in, which loads nothing of LlamaIndex
import { isCallableTool, observedTool } from './observed-tool.js';

const NAME = '@llamaindex/core';
/** Its ESM file: `@llamaindex/core` has no "." export, so its CommonJS file is hooked by specifier (commonjs-subpaths.ts). */
const FILE = 'agent/dist/index.js';
type CallTool = (this: unknown, tool: unknown, toolCall: unknown, ...rest: unknown[]) => Promise<unknown>;

/*
 * Where the hook sits: `callTool` of `@llamaindex/core/agent`, through which the workflow agents
 * (`agent()`, `multiAgent()`, `AgentWorkflow.prototype.callTool` of `@llamaindex/workflow`) run every
 * tool call. It has the tool and the model's call (`{ name, input, id }`), so the call's id is known
 * before the tool starts. The tool itself is never changed: `callTool` is handed the stand-in
 * `wrapTools` makes (its `call` observed, run on the tool itself), and the result's `tool` is the
 * app's tool again. A tool `wrapTools` observed already is left to it. `AgentWorker`/`LLMAgent` of
 * `@llamaindex/core/agent` call `callTool` inside that module, past its exports: not observed.
 */
export function llamaindexModules(context: PatchContext): {
  readonly definitions: InstrumentationNodeModuleDefinition[];
  readonly commonJsSubpaths: CommonJsSubpath[];
} {
  const { wrap, unwrap, isEnabled, logger } = context;

  const patch = (moduleExports: { callTool?: unknown }) => {
    if (typeof moduleExports.callTool !== 'function') return moduleExports;
    wrap(
      moduleExports as { callTool: CallTool },
      'callTool',
      (original) =>
        async function callTool(this: unknown, tool: unknown, toolCall: unknown, ...rest: unknown[]) {
          const standIn = isEnabled()
            ? guarded(logger, 'LlamaIndex tool', () => standInFor(tool, toolCall), tool)
            : tool;
          const output = await original.call(this, standIn, toolCall, ...rest);
          // what callTool returns names the tool it ran: the app's, not the stand-in
          if (
            standIn !== tool &&
            output !== null &&
            typeof output === 'object' &&
            (output as { tool?: unknown }).tool === standIn
          ) {
            (output as { tool?: unknown }).tool = tool;
          }
          return output;
        },
    );
    return moduleExports;
  };
  const unpatch = (moduleExports: { callTool?: unknown }) => {
    if (isWrapped(moduleExports.callTool)) unwrap(moduleExports as { callTool: CallTool }, 'callTool');
  };

  /** A stand-in for this one call, its id known; the tool itself when there is nothing to observe. */
  const standInFor = (tool: unknown, toolCall: unknown): unknown => {
    if (!isCallableTool(tool) || isObserved(tool.call)) return tool;
    const id = (toolCall as { id?: unknown } | null | undefined)?.id;
    const toolCallId = typeof id === 'string' && id.length > 0 ? id : undefined;
    return observedTool(tool, context.listener(), () => toolCallId);
  };

  const range = [declaredRange(LLAMAINDEX_VERSIONS)];
  const notice = noticeUnsupported(logger, NAME, LLAMAINDEX_VERSIONS);
  return {
    definitions: [
      new InstrumentationNodeModuleDefinition(NAME, range, undefined, undefined, [
        new InstrumentationNodeModuleFile(`${NAME}/${FILE}`, range, patch, unpatch),
      ]),
      new InstrumentationNodeModuleDefinition(NAME, ['*'], undefined, undefined, [
        new InstrumentationNodeModuleFile(`${NAME}/${FILE}`, ['*'], notice, () => {}),
      ]),
    ],
    commonJsSubpaths: [
      { specifiers: [`${NAME}/agent`], supported: LLAMAINDEX_VERSIONS, patch, unpatch, unsupported: notice },
    ],
  };
}
