import type { Context, Span, SpanOptions, Tracer, TracerOptions, TracerProvider } from '@opentelemetry/api';

/*
 * The global providers register's SDK puts behind the API: each tracer or logger they give acts on
 * the provider that is current when it starts a span or emits a record, not when it was got.
 * Without register, what an app gets before registering its own provider (a tracer or logger of an
 * instrumentation, set when the app's SDK starts; a module's `trace.getTracer()` at load) is the
 * API's proxy, which follows the app's provider once registered. With register's SDK registered,
 * the API would give the SDK's own tracer or logger, which keeps its spans and records with
 * register. `switchTo` is the app's registration.
 */

/**
 * What the SDK's providers have besides handing out tracers and loggers, and code that flushes
 * through the API calls: an app before `process.exit()`, AWS Lambda's instrumentation after each
 * invocation (`trace.getTracerProvider().getDelegate().forceFlush`, bound once, when it is set up).
 */
interface Stoppable {
  forceFlush?(): Promise<void>;
  shutdown?(): Promise<void>;
}

/** `provider[method]()`, the current provider's, where it has one (a no-op provider has none). */
function callOn(provider: Stoppable, method: keyof Stoppable): Promise<void> {
  return provider[method]?.() ?? Promise.resolve();
}

/** The tracer provider behind the global one while it is register's. */
export class SwitchableTracerProvider implements TracerProvider {
  constructor(private current: TracerProvider & Stoppable) {}

  switchTo(provider: TracerProvider): void {
    this.current = provider;
  }

  /** The current provider's, as the SDK's own provider behind the API would: what it has ended is exported. */
  forceFlush(): Promise<void> {
    return callOn(this.current, 'forceFlush');
  }

  shutdown(): Promise<void> {
    return callOn(this.current, 'shutdown');
  }

  getTracer(name: string, version?: string, options?: TracerOptions): Tracer {
    const tracer = following(
      () => this.current,
      (provider) => provider.getTracer(name, version, options),
    );
    return {
      startSpan: (spanName: string, spanOptions?: SpanOptions, spanContext?: Context): Span =>
        tracer().startSpan(spanName, spanOptions, spanContext),
      // its overloads (the function second, third or fourth) are the current tracer's to sort out
      startActiveSpan(...args: unknown[]): unknown {
        const target = tracer();
        return Reflect.apply(target.startActiveSpan, target, args);
      },
    } as Tracer;
  }
}

/** The part of the logs API used here (`@opentelemetry/api-logs` before the API 1.10). */
export interface LoggerProvider extends Stoppable {
  getLogger(name: string, version?: string, options?: object): Logger;
}

interface Logger {
  emit(logRecord: object): void;
  enabled?(options?: object): boolean;
}

/** The global logger provider while it is register's. */
export class SwitchableLoggerProvider implements LoggerProvider {
  constructor(private current: LoggerProvider) {}

  switchTo(provider: LoggerProvider): void {
    this.current = provider;
  }

  /** The current provider's, as the SDK's own, registered with the logs API, would. */
  forceFlush(): Promise<void> {
    return callOn(this.current, 'forceFlush');
  }

  shutdown(): Promise<void> {
    return callOn(this.current, 'shutdown');
  }

  getLogger(name: string, version?: string, options?: object): Logger {
    const logger = following(
      () => this.current,
      (provider) => provider.getLogger(name, version, options),
    );
    return {
      emit: (logRecord: object) => logger().emit(logRecord),
      enabled: (enabledOptions?: object) => logger().enabled?.(enabledOptions) ?? true,
    };
  }
}

/** What `get` gives for the current provider, got again only when the provider has changed. */
function following<Provider, Got>(current: () => Provider, get: (provider: Provider) => Got): () => Got {
  let of: Provider | undefined;
  let got: Got | undefined;
  return () => {
    const provider = current();
    if (of !== provider || got === undefined) {
      of = provider;
      got = get(provider);
    }
    return got;
  };
}
