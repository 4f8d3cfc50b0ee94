import { InstrumentationNodeModuleDefinition, isWrapped } from '@opentelemetry/instrumentation';
import { guarded, type PatchContext } from '../../instrumentation/patch-context.js';
import { isObserved } from '../../internal/observed-marker.js';
import { declaredRange, noticeUnsupported } from '../../internal/version-range.js';
import { BEDROCK_AGENT_RUNTIME_VERSIONS } from './manifest.js';
import { MIDDLEWARE_NAME, returnControlMiddleware } from './return-control-middleware.js';

const NAME = '@aws-sdk/client-bedrock-agent-runtime';
type Send = (this: unknown, ...args: unknown[]) => unknown;
type Prototype = Record<string, unknown>;

/*
 * Where the hook sits: `BedrockAgentRuntimeClient.prototype.send` (its own, over the Smithy client's;
 * `BedrockAgentRuntime`'s methods send through it too). A client's first `send` adds the adapter's
 * middleware to its stack (return-control-middleware.ts), once per client; a client the app passed to
 * `instrumentClient` keeps its own.
 */
export function bedrockAgentRuntimeModules(context: PatchContext): InstrumentationNodeModuleDefinition[] {
  const { wrap, unwrap, isEnabled, logger } = context;
  const withMiddleware = new WeakSet<object>();
  const middleware = returnControlMiddleware(() => (isEnabled() ? context.listener() : undefined));

  const addMiddleware = (client: unknown): void => {
    if (client === null || typeof client !== 'object' || withMiddleware.has(client) || isObserved(client)) return;
    withMiddleware.add(client);
    guarded(
      logger,
      'Bedrock agent runtime client',
      () => {
        const stack = (client as { middlewareStack?: { add?: (m: unknown, o: object) => void } }).middlewareStack;
        stack?.add?.(middleware, { step: 'initialize', name: MIDDLEWARE_NAME, override: true });
      },
      undefined,
    );
  };

  const patch = (moduleExports: { BedrockAgentRuntimeClient?: { prototype: Prototype } }) => {
    const prototype = moduleExports.BedrockAgentRuntimeClient?.prototype;
    if (!prototype || typeof prototype.send !== 'function' || isWrapped(prototype.send)) return moduleExports;
    wrap(
      prototype,
      'send',
      (original) =>
        function send(this: unknown, ...args: unknown[]) {
          if (isEnabled()) addMiddleware(this);
          return (original as Send).apply(this, args);
        },
    );
    return moduleExports;
  };
  const unpatch = (moduleExports: { BedrockAgentRuntimeClient?: { prototype: Prototype } }) => {
    const prototype = moduleExports.BedrockAgentRuntimeClient?.prototype;
    if (prototype && isWrapped(prototype.send)) unwrap(prototype, 'send');
  };

  const range = [declaredRange(BEDROCK_AGENT_RUNTIME_VERSIONS)];
  return [
    new InstrumentationNodeModuleDefinition(NAME, range, patch, unpatch),
    new InstrumentationNodeModuleDefinition(
      NAME,
      ['*'],
      noticeUnsupported(logger, NAME, BEDROCK_AGENT_RUNTIME_VERSIONS),
    ),
  ];
}
