import {
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
  isWrapped,
} from '@opentelemetry/instrumentation';
import { guarded, type PatchContext } from '../../instrumentation/patch-context.js';
import { patchableExports } from '../../instrumentation/patchable-exports.js';
import { forwardingObject } from '../../internal/forwarding-object.js';
import { isObserved } from '../../internal/observed-marker.js';
import { declaredRange, noticeUnsupported } from '../../internal/version-range.js';
import type { ToolFunction } from './agent-tool.js';
import { type ObservedRun, observeRun } from './loop-run.js';
import { PI_AGENT_CORE_VERSIONS } from './manifest.js';

const NAME = '@mariozechner/pi-agent-core';
/** The loop's module: every run, an `Agent`'s included, starts at one of its four exports. */
const FILE = 'dist/agent-loop.js';
/** Where each export takes the context, the config and the event sink (`emit`; the two streaming ones make their own). */
const LOOPS = {
  runAgentLoop: { context: 1, config: 2, emit: 3 },
  runAgentLoopContinue: { context: 0, config: 1, emit: 2 },
  agentLoop: { context: 1, config: 2, emit: undefined },
  agentLoopContinue: { context: 0, config: 1, emit: undefined },
} as const;
type LoopName = keyof typeof LOOPS;
type Loops = Partial<Record<LoopName, ToolFunction>>;

/*
 * Where the hook sits: the four loop functions of `dist/agent-loop.js` (the package is ES modules
 * only). An `Agent` starts each run with `runAgentLoop` or `runAgentLoopContinue`, imported from that
 * module: through import-in-the-middle's copy of it, so patched too. Each run is observed as
 * loop-run.ts says, given stand-ins (forwarding-object.ts) for the app's context (`tools` replaced)
 * and config (`beforeToolCall` replaced), every other property read on the app's objects. Its events:
 * an `emit` that sees each before the app's sink; for `agentLoop` and `agentLoopContinue`, which push
 * their events into the stream they return, that stream's `push`, replaced on the instance (the
 * first events, pushed before it is returned, carry no tool call). A run whose context an
 * `instrumentAgent` already observes is left to it; a tool `wrapTools` observes is left to it.
 */
export function piAgentCoreModules(context: PatchContext): InstrumentationNodeModuleDefinition[] {
  const { wrap, unwrap, isEnabled, logger } = context;

  /** The run observed, or `undefined` when there is nothing to observe (not enabled, another observer's, not an object). */
  const runOf = (loopContext: unknown, config: unknown): ObservedRun | undefined => {
    if (!isEnabled() || loopContext === null || typeof loopContext !== 'object' || isObserved(loopContext)) {
      return undefined;
    }
    if (config === null || typeof config !== 'object') return undefined;
    return guarded(
      logger,
      'pi agent loop',
      () => {
        const given = config as { beforeToolCall?: unknown; sessionId?: unknown };
        return observeRun(context.listener(), {
          tools: (loopContext as { tools?: unknown }).tools,
          beforeToolCall: given.beforeToolCall,
          config,
          sessionId: given.sessionId,
        });
      },
      undefined,
    );
  };

  const observedLoop = (name: LoopName, original: ToolFunction): ToolFunction => {
    const at = LOOPS[name];
    return function loop(this: unknown, ...args: unknown[]) {
      const run = runOf(args[at.context], args[at.config]);
      if (run === undefined) return Reflect.apply(original, this, args);
      const given = [...args];
      given[at.context] = forwardingObject(args[at.context] as object, new Map([['tools', run.tools]]));
      given[at.config] = forwardingObject(args[at.config] as object, new Map([['beforeToolCall', run.beforeToolCall]]));
      if (at.emit !== undefined) {
        const emit = args[at.emit];
        if (typeof emit === 'function') given[at.emit] = observedEmit(emit as ToolFunction, run);
        return Reflect.apply(original, this, given);
      }
      const stream = Reflect.apply(original, this, given);
      guarded(logger, 'pi agent loop', () => watchPushes(stream, run), undefined);
      return stream;
    };
  };

  const patch = (moduleExports: Loops) => {
    const names = Object.keys(LOOPS) as LoopName[];
    const target = patchableExports(moduleExports, names);
    for (const name of names) {
      if (typeof target[name] !== 'function' || isWrapped(target[name])) continue;
      wrap(target as Required<Loops>, name, (original) => observedLoop(name, original));
    }
    return target;
  };
  const unpatch = (moduleExports: Loops) => {
    const target = patchableExports(moduleExports, Object.keys(LOOPS));
    for (const name of Object.keys(LOOPS) as LoopName[]) {
      if (isWrapped(target[name])) unwrap(target as Required<Loops>, name);
    }
  };

  const range = [declaredRange(PI_AGENT_CORE_VERSIONS)];
  const notice = noticeUnsupported(logger, NAME, PI_AGENT_CORE_VERSIONS);
  return [
    new InstrumentationNodeModuleDefinition(NAME, range, undefined, undefined, [
      new InstrumentationNodeModuleFile(`${NAME}/${FILE}`, range, patch, unpatch),
    ]),
    new InstrumentationNodeModuleDefinition(NAME, ['*'], undefined, undefined, [
      new InstrumentationNodeModuleFile(`${NAME}/${FILE}`, ['*'], notice, () => {}),
    ]),
  ];
}

/** The run's event sink: the run sees each event first (under `'report'`, its text is in place for the app's sink). */
function observedEmit(emit: ToolFunction, run: ObservedRun): ToolFunction {
  return function emitObserved(this: unknown, ...args: unknown[]) {
    run.onEvent(args[0]);
    return Reflect.apply(emit, this, args);
  };
}

/** The run's events as the stream `agentLoop` returns gets them: its `push`, on this instance only. */
function watchPushes(stream: unknown, run: ObservedRun): void {
  if (stream === null || typeof stream !== 'object') return;
  const push = (stream as { push?: unknown }).push;
  if (typeof push !== 'function') return;
  Object.defineProperty(stream, 'push', {
    value: function pushObserved(this: unknown, ...args: unknown[]) {
      run.onEvent(args[0]);
      return Reflect.apply(push, this, args);
    },
    writable: true,
    configurable: true,
    enumerable: false,
  });
}
