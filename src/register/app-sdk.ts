import { createRequire } from 'node:module';
import type {
  ContextManager,
  MeterProvider,
  ProxyTracerProvider,
  TextMapPropagator,
  TracerProvider,
} from '@opentelemetry/api';
import * as api from '@opentelemetry/api';
import { type LoggerProvider, SwitchableLoggerProvider, SwitchableTracerProvider } from './switchable-providers.js';

/**
 * Where `@opentelemetry/api` 1.x keeps what is registered, one object shared by every copy of the
 * API in the process (its own cross-copy contract): read here for the context manager and the
 * propagator, which the API has no getter for.
 */
const API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

type ApiName = 'trace' | 'metrics' | 'context' | 'propagation';

const registered = (name: ApiName): unknown =>
  (globalThis as Record<symbol, Partial<Record<ApiName, unknown>> | undefined>)[API_GLOBAL]?.[name];

/** A logs API: `@opentelemetry/api`'s own from 1.10 on, `@opentelemetry/api-logs` before. */
interface LogsApi {
  getLoggerProvider(): LoggerProvider;
  setGlobalLoggerProvider(provider: LoggerProvider): unknown;
  disable(): void;
}

/** One copy of `@opentelemetry/api`: from 1.10 on, its ES module and its CommonJS build are two. */
interface Api {
  readonly trace: typeof api.trace;
  readonly metrics: typeof api.metrics;
  readonly context: typeof api.context;
  readonly propagation: typeof api.propagation;
  readonly logs?: LogsApi;
}

interface ObservesThrough {
  setMeterProvider(provider: MeterProvider): void;
}

/**
 * Starts register's SDK (`start`) so that an app that starts its own under it (`new NodeSDK().start()`,
 * `provider.register()`, `trace.setGlobalTracerProvider(provider)`, ...) gets its own registered,
 * as it would without register, instead of the API's "duplicate registration" and its spans,
 * metrics and logs going to register's exporters.
 *
 * The API registers each global once: the first registration wins, later ones fail. Register's
 * comes first (a preload), so each `setGlobal...` of the API (each copy of it this package can
 * reach: its own and the CommonJS one) is replaced by one that, while register's own is still the
 * registered one, takes it away first, then registers the app's:
 * - tracer provider: the global proxy is kept and given the app's provider as delegate (what the
 *   API's own registration does), and the tracers handed out before follow it
 *   (`SwitchableTracerProvider`);
 * - logger provider: the app's is registered, and the loggers handed out before follow it
 *   (`SwitchableLoggerProvider`);
 * - meter provider, context manager, propagator: register's is disabled (`metrics.disable()`, ...)
 *   and the app's registered by the API's own code (meters got before stay with register's: the
 *   metrics API has no proxy, and without register they would record nothing);
 * - `instrumentation` observes through the app's meter provider from then on (its tracer is the
 *   global one's, which now delegates to the app's).
 * A second registration by the app fails as it would without register. Register's SDK keeps what
 * the app does not replace (its metrics, for an app that only registers a tracer provider) and is
 * flushed at exit as before.
 */
export function startGivingWayToTheAppsSdk(start: () => void, instrumentation: ObservesThrough): void {
  const copies = apiCopies();
  const logsApis = logsApisOf(copies);
  const before = {
    trace: registered('trace'),
    metrics: registered('metrics'),
    context: registered('context'),
    propagation: registered('propagation'),
    logs: logsApis[0]?.getLoggerProvider(),
  };
  start();
  // register's own: what its start registered where nothing was (an app that started its SDK first keeps it)
  const own = <T>(name: ApiName): T | undefined => {
    const now = registered(name);
    return before[name] === undefined && now !== undefined ? (now as T) : undefined;
  };

  const proxy = own<ProxyTracerProvider>('trace');
  if (proxy !== undefined) {
    const switchable = new SwitchableTracerProvider(proxy.getDelegate());
    proxy.setDelegate(switchable);
    for (const { trace } of copies) {
      replace(
        trace,
        'setGlobalTracerProvider',
        (setGlobalTracerProvider) =>
          function giveWayToTheAppsTracerProvider(provider: TracerProvider): boolean {
            if (registered('trace') !== proxy || proxy.getDelegate() !== switchable) {
              return Reflect.apply(setGlobalTracerProvider, trace, [provider]);
            }
            proxy.setDelegate(provider);
            switchable.switchTo(provider);
            return true;
          },
      );
    }
  }

  const meterProvider = own<MeterProvider>('metrics');
  if (meterProvider !== undefined) {
    for (const { metrics } of copies) {
      replace(
        metrics,
        'setGlobalMeterProvider',
        (setGlobalMeterProvider) =>
          function giveWayToTheAppsMeterProvider(provider: MeterProvider): boolean {
            if (registered('metrics') === meterProvider) metrics.disable();
            const done: boolean = Reflect.apply(setGlobalMeterProvider, metrics, [provider]);
            if (done) instrumentation.setMeterProvider(metrics.getMeterProvider());
            return done;
          },
      );
    }
  }

  const contextManager = own<ContextManager>('context');
  if (contextManager !== undefined) {
    for (const { context } of copies) {
      replace(
        context,
        'setGlobalContextManager',
        (setGlobalContextManager) =>
          function giveWayToTheAppsContextManager(manager: ContextManager): boolean {
            if (registered('context') === contextManager) context.disable();
            return Reflect.apply(setGlobalContextManager, context, [manager]);
          },
      );
    }
  }

  const propagator = own<TextMapPropagator>('propagation');
  if (propagator !== undefined) {
    for (const { propagation } of copies) {
      replace(
        propagation,
        'setGlobalPropagator',
        (setGlobalPropagator) =>
          function giveWayToTheAppsPropagator(appPropagator: TextMapPropagator): boolean {
            if (registered('propagation') === propagator) propagation.disable();
            return Reflect.apply(setGlobalPropagator, propagation, [appPropagator]);
          },
      );
    }
  }

  const [logs] = logsApis;
  const loggerProvider = logs?.getLoggerProvider();
  if (logs !== undefined && loggerProvider !== undefined && loggerProvider !== before.logs) {
    const switchable = new SwitchableLoggerProvider(loggerProvider);
    logs.disable();
    logs.setGlobalLoggerProvider(switchable);
    for (const copy of logsApis) {
      replace(
        copy,
        'setGlobalLoggerProvider',
        (setGlobalLoggerProvider) =>
          function giveWayToTheAppsLoggerProvider(provider: LoggerProvider): unknown {
            if (copy.getLoggerProvider() === switchable) {
              switchable.switchTo(provider);
              copy.disable();
            }
            return Reflect.apply(setGlobalLoggerProvider, copy, [provider]);
          },
      );
    }
  }
}

/** Puts `make(original)` in place of `target[name]`, on the object itself. */
function replace<Target, Name extends keyof Target>(
  target: Target,
  name: Name,
  make: (original: Target[Name]) => Target[Name],
): void {
  target[name] = make(target[name]);
}

/** This package's copy of the API, and the CommonJS one (the SDK's) when that is another. */
function apiCopies(): Api[] {
  const own = api as unknown as Api;
  try {
    const commonJs = createRequire(import.meta.url)('@opentelemetry/api') as Api;
    return commonJs.trace === own.trace ? [own] : [own, commonJs];
  } catch {
    return [own];
  }
}

/** The API's own logs API (1.10 on), else `@opentelemetry/api-logs` as the SDK resolves it; none if neither. */
function logsApisOf(copies: readonly Api[]): LogsApi[] {
  const own = copies.flatMap(({ logs }) => (logs === undefined ? [] : [logs]));
  if (own.length > 0) return own;
  try {
    const requireHere = createRequire(import.meta.url);
    const requireFromTheSdk = createRequire(requireHere.resolve('@opentelemetry/sdk-node'));
    return [(requireFromTheSdk('@opentelemetry/api-logs') as { logs: LogsApi }).logs];
  } catch {
    return [];
  }
}
