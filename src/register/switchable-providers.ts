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

/** The tracer provider behind the global one while it is register's. */
export class SwitchableTracerProvider implements TracerProvider {
  constructor(private current: TracerProvider) {}

  switchTo(provider: TracerProvider): void {
    this.current = provider;
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

/** The part of `@opentelemetry/api-logs` used here: a dependency of the SDK's, not of this package's. */
export interface LoggerProvider {
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
