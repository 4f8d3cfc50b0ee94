import {
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
  isWrapped,
} from '@opentelemetry/instrumentation';
import { guarded, type PatchContext } from '../../instrumentation/patch-context.js';
import { isObserved } from '../../internal/observed-marker.js';
import { declaredRange, noticeUnsupported, type SupportedVersions } from '../../internal/version-range.js';
import { OPENROUTER_AGENT_VERSIONS, OPENROUTER_SDK_VERSIONS } from './manifest.js';
import { type ListenerOf, modelResultReplacements } from './model-result-seam.js';

type Prototype = Record<string, unknown>;
type Method = (this: object, ...args: unknown[]) => unknown;

const PACKAGES: ReadonlyArray<readonly [string, SupportedVersions]> = [
  ['@openrouter/agent', OPENROUTER_AGENT_VERSIONS],
  ['@openrouter/sdk', OPENROUTER_SDK_VERSIONS],
];

/*
 * Where the hook sits: `ModelResult.prototype` of each package's esm/lib/model-result.js (ES modules
 * only), whatever made the ModelResult (`callModel(client, request)`, `client.callModel(request)`):
 * the methods that run its tool calls (model-result-seam.ts) are replaced on the prototype. A
 * ModelResult the app passed to `instrumentModelResult` is observed by its own listener, not here.
 */
export function openrouterModules(context: PatchContext): InstrumentationNodeModuleDefinition[] {
  const { wrap, unwrap, isEnabled, logger } = context;
  const listenerOf: ListenerOf = (modelResult) =>
    isEnabled() && !isObserved(modelResult) ? context.listener() : undefined;

  const patch = (moduleExports: { ModelResult?: { prototype: Prototype } }) => {
    const prototype = moduleExports.ModelResult?.prototype;
    if (!prototype) return moduleExports;
    guarded(
      logger,
      'OpenRouter callModel',
      () => {
        for (const [name, replace] of modelResultReplacements(prototype)) {
          if (isWrapped(prototype[name])) continue;
          wrap(prototype, name, (original) => replace(original as Method, listenerOf));
        }
      },
      undefined,
    );
    return moduleExports;
  };
  const unpatch = (moduleExports: { ModelResult?: { prototype: Prototype } }) => {
    const prototype = moduleExports.ModelResult?.prototype;
    if (!prototype) return;
    for (const name of [
      'runToolWithHooks',
      'executeToolRound',
      'executeAutoApproveTools',
      'processApprovalDecisions',
    ]) {
      if (isWrapped(prototype[name])) unwrap(prototype, name);
    }
  };

  return PACKAGES.flatMap(([name, versions]) => {
    const range = [declaredRange(versions)];
    const file = new InstrumentationNodeModuleFile(`${name}/esm/lib/model-result.js`, range, patch, unpatch);
    return [
      new InstrumentationNodeModuleDefinition(name, range, undefined, undefined, [file]),
      new InstrumentationNodeModuleDefinition(name, ['*'], noticeUnsupported(logger, name, versions)),
    ];
  });
}
