import {
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
  isWrapped,
} from '@opentelemetry/instrumentation';
import { guarded, type PatchContext } from '../../instrumentation/patch-context.js';
import { forwardingObject } from '../../internal/forwarding-object.js';
import { declaredRange, noticeUnsupported } from '../../internal/version-range.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { GENKIT_VERSIONS } from './manifest.js';
// framework-free: the adapter's tool hook, which loads nothing of Genkit
import { observingToolHook, type ToolHook } from './observed-tool-request.js';

const NAME = '@genkit-ai/ai';
const FILES = ['lib/genkit-ai.js', 'lib/genkit-ai.mjs'];
const METHODS = ['generate', 'generateStream'] as const;
/** The name of the middleware `toolCallsMiddleware` makes, and of this one: a `use` that has one is observed already. */
const MIDDLEWARE_PREFIX = 'otel-tool-calls-';
/** Genkit's own key (`@genkit-ai/core` tracing): set once telemetry is set up, so that Genkit sets up none. */
const GENKIT_TELEMETRY_SET_UP = '__GENKIT_TELEMETRY_INSTRUMENTED';
type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;
type Prototype = Record<string, unknown>;

/** A generate middleware as Genkit takes it in `use` (a definition: its `name` and `instantiate`). */
interface MiddlewareDefinition {
  readonly name: string;
  readonly description: string;
  readonly instantiate: () => { readonly tool: ToolHook };
}

/*
 * Where the hook sits: `GenkitAI.prototype.generate` and `generateStream` (the `Genkit` instance's
 * `ai.generate()` / `ai.generateStream()`). Their options get, last in `use`, the generate middleware
 * whose `tool` hook `toolCallsMiddleware` has, in a stand-in for the app's options (every other
 * property read on them); a middleware of this package's already in `use` (the app's own
 * `toolCallsMiddleware`) is left to observe the calls. So each tool call is Genkit's own tool action
 * span, joined, as with the middleware. A definition object, not `generateMiddleware()`: this file
 * loads nothing of Genkit. Prompts (`ai.prompt()`, `definePrompt`) and chats run `generate` inside
 * Genkit's modules, past these methods: not observed.
 */
export function genkitModules(context: PatchContext): InstrumentationNodeModuleDefinition[] {
  const { wrap, unwrap, isEnabled, logger } = context;
  // one definition per listener: Genkit registers a middleware by its name in each generate's registry
  const definitions = new WeakMap<ToolCallListener<unknown>, MiddlewareDefinition>();
  let created = 0;

  const definitionFor = (listener: ToolCallListener<unknown>): MiddlewareDefinition => {
    let definition = definitions.get(listener);
    if (definition === undefined) {
      created += 1;
      const tool = observingToolHook(listener);
      definition = {
        name: `${MIDDLEWARE_PREFIX}zero-code-${created}`,
        description: 'Reports each tool call to otel-tool-calls (zero-code)',
        instantiate: () => ({ tool }),
      };
      definitions.set(listener, definition);
    }
    return definition;
  };

  const observedOptions = (options: unknown): unknown => {
    // a prompt given as text or parts has no tools
    if (options === null || typeof options !== 'object' || Array.isArray(options)) return options;
    if (options instanceof Promise) return options.then(observedOptions);
    return guarded(
      logger,
      'Genkit generate',
      () => {
        const { use } = options as { use?: unknown };
        const given = Array.isArray(use) ? use : [];
        if (given.some(isOwnMiddleware)) return options;
        return forwardingObject(options, new Map([['use', [...given, definitionFor(context.listener())]]]));
      },
      options,
    );
  };

  const patch = (moduleExports: { GenkitAI?: { prototype: Prototype } }) => {
    const prototype = moduleExports.GenkitAI?.prototype;
    if (!prototype || METHODS.some((method) => typeof prototype[method] !== 'function')) return moduleExports;
    keepGenkitFromStartingItsSdk();
    for (const method of METHODS) {
      wrap(
        prototype,
        method,
        (original) =>
          function observedGenerate(this: unknown, options: unknown, ...rest: unknown[]) {
            const given = isEnabled() ? observedOptions(options) : options;
            return (original as AnyFunction).call(this, given, ...rest);
          },
      );
    }
    return moduleExports;
  };
  const unpatch = (moduleExports: { GenkitAI?: { prototype: Prototype } }) => {
    const prototype = moduleExports.GenkitAI?.prototype;
    if (!prototype) return;
    for (const method of METHODS) if (isWrapped(prototype[method])) unwrap(prototype, method);
  };

  const range = [declaredRange(GENKIT_VERSIONS)];
  const notice = noticeUnsupported(logger, NAME, GENKIT_VERSIONS);
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

/**
 * Genkit starts an OpenTelemetry SDK of its own at its first span unless telemetry was set up: its
 * `ensureBasicTelemetryInstrumentation()` calls `enableTelemetry({})` unless a promise is under
 * `__GENKIT_TELEMETRY_INSTRUMENTED` on the global object (what `enableTelemetry` leaves there).
 * Without a stop, Genkit's SDK would take the tracer provider over (register gives way to an SDK
 * started after it) and the tool spans would go to Genkit's exporter only: the process's SDK
 * (register's, or the app's `NodeSDK` this instrumentation is in) is the one. So that promise is
 * set, and only where nothing is yet. Not Genkit's `disableGenkitOTelInitialization()` flag: it
 * also makes the app's own `enableTelemetry(...)` (`enableFirebaseTelemetry()`, ...) a no-op, and
 * an app that asks Genkit for telemetry gets it, as without this package. Left alone: under
 * `genkit start` (`GENKIT_ENV=dev`, where Genkit's SDK feeds its Dev UI) and with
 * `ENABLE_FIREBASE_MONITORING=true` (Genkit then enables Firebase telemetry itself, when the key is unset).
 */
function keepGenkitFromStartingItsSdk(): void {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  if (env?.GENKIT_ENV === 'dev' || env?.ENABLE_FIREBASE_MONITORING === 'true') return;
  const global = globalThis as Record<string, unknown>;
  global[GENKIT_TELEMETRY_SET_UP] ??= Promise.resolve();
}

/** A middleware (a reference or a definition) named as this package names its own. */
function isOwnMiddleware(middleware: unknown): boolean {
  try {
    const { name } = middleware as { name?: unknown };
    return typeof name === 'string' && name.startsWith(MIDDLEWARE_PREFIX);
  } catch {
    return false;
  }
}
