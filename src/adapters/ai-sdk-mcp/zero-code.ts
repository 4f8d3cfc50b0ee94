import { InstrumentationNodeModuleDefinition, isWrapped } from '@opentelemetry/instrumentation';
import { guarded, type PatchContext } from '../../instrumentation/patch-context.js';
import { isObserved } from '../../internal/observed-marker.js';
import { declaredRange, noticeUnsupported } from '../../internal/version-range.js';
import { instrumentClient } from './instrument-client.js';
import { AI_SDK_MCP_VERSIONS } from './manifest.js';

const NAME = '@ai-sdk/mcp';
type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;

/** Both names the package exports the function under. */
const FUNCTIONS = ['createMCPClient', 'experimental_createMCPClient'] as const;

/*
 * Where the hook sits: `createMCPClient` (and its `experimental_` alias) of `@ai-sdk/mcp`'s main
 * module. The client it resolves with is passed to `instrumentClient`, with a listener that reads the
 * instrumentation's state at each call (the client keeps its hooks after `disable()`); a client the app
 * instrumented itself is left to its own observation.
 */
export function aiSdkMcpModules(context: PatchContext): InstrumentationNodeModuleDefinition[] {
  const { wrap, unwrap, isEnabled, logger } = context;

  const observed = (client: unknown): unknown => {
    if (!isEnabled() || client === null || typeof client !== 'object' || isObserved(client)) return client;
    return guarded(logger, 'AI SDK MCP client', () => instrumentClient(client as never, context.listener()), client);
  };

  const patch = (moduleExports: Record<string, unknown>) => {
    for (const name of FUNCTIONS) {
      if (typeof moduleExports[name] !== 'function') continue;
      wrap(
        moduleExports,
        name,
        (original) =>
          function createMCPClient(this: unknown, ...args: unknown[]) {
            const created = (original as AnyFunction).apply(this, args);
            return created instanceof Promise ? created.then(observed) : created;
          },
      );
    }
    return moduleExports;
  };
  const unpatch = (moduleExports: Record<string, unknown>) => {
    for (const name of FUNCTIONS) if (isWrapped(moduleExports[name])) unwrap(moduleExports, name);
  };

  return [
    new InstrumentationNodeModuleDefinition(NAME, [declaredRange(AI_SDK_MCP_VERSIONS)], patch, unpatch),
    new InstrumentationNodeModuleDefinition(NAME, ['*'], noticeUnsupported(logger, NAME, AI_SDK_MCP_VERSIONS)),
  ];
}
