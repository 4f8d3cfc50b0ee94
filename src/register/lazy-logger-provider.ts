/*
 * FORK of upstream code, kept in step by test/register/sdk-parity.test.ts.
 * Mirrors `configureLoggerProviderFromEnv` and the logger provider of `NodeSDK.start()` of
 * `@opentelemetry/sdk-node` 0.223.0 (SDK 2.12 line: `build/src/sdk.js`, `build/src/utils.js`) and
 * 0.301.0 (SDK 3.1 line: `dist/sdk.mjs`, `dist/utils.mjs`).
 */
import { diag } from '@opentelemetry/api';
import type { MeterProvider } from '@opentelemetry/sdk-metrics';
import { envReaders, type LoadPackage, positiveNumberFromEnv, sdkLine } from './sdk-from-env.js';

/** An exporter `OTEL_LOGS_EXPORTER` names: made when the logs SDK is. */
type LogsExporterChoice =
  | { readonly kind: 'otlp'; readonly flavour: 'grpc' | 'http' | 'proto' }
  | { readonly kind: 'console' };

/** The parts of `@opentelemetry/sdk-logs` and of the logs API used here (dependencies of the SDK's, not of this package's). */
interface Logger {
  emit(logRecord: object): void;
}
interface SdkLoggerProvider {
  getLogger(name: string, version?: string, options?: object): Logger;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}
interface LogsApi {
  setGlobalLoggerProvider(provider: object): unknown;
}
type Constructor<Instance = object> = new (options?: object) => Instance;
interface SdkLogs {
  readonly LoggerProvider: Constructor<SdkLoggerProvider>;
  readonly BatchLogRecordProcessor: Constructor;
  readonly SimpleLogRecordProcessor: Constructor;
  readonly ConsoleLogRecordExporter: Constructor;
}

/**
 * `OTEL_LOGS_EXPORTER` (default `otlp`) and its protocol, read at start as NodeSDK reads them (its
 * `configureLoggerProviderFromEnv`, with its diag messages); the exporters themselves are made later.
 */
export function logsExportersFromEnv(load: LoadPackage): LogsExporterChoice[] {
  const core = envReaders(load);
  const names = Array.from(new Set(core.getStringListFromEnv('OTEL_LOGS_EXPORTER') ?? []));
  if (names.length === 0) {
    diag.debug('OTEL_LOGS_EXPORTER is empty. Using default otlp exporter.');
    names.push('otlp');
  }
  if (names.includes('none')) {
    diag.info('OTEL_LOGS_EXPORTER contains "none". Logger provider will not be initialized.');
    return [];
  }
  const choices: LogsExporterChoice[] = [];
  for (const name of names) {
    if (name === 'otlp') {
      const protocol =
        (
          core.getStringFromEnv('OTEL_EXPORTER_OTLP_LOGS_PROTOCOL') ??
          core.getStringFromEnv('OTEL_EXPORTER_OTLP_PROTOCOL')
        )?.trim() || 'http/protobuf';
      const flavour = ({ grpc: 'grpc', 'http/json': 'http', 'http/protobuf': 'proto' } as const)[
        protocol as 'grpc' | 'http/json' | 'http/protobuf'
      ];
      if (flavour === undefined) diag.warn(`Unsupported OTLP logs protocol: "${protocol}". Using http/protobuf.`);
      choices.push({ kind: 'otlp', flavour: flavour ?? 'proto' });
    } else if (name === 'console') {
      choices.push({ kind: 'console' });
    } else {
      diag.warn(`Unsupported OTEL_LOGS_EXPORTER value: "${name}". Supported values are: otlp, console, none.`);
    }
  }
  return choices;
}

/**
 * The global logger provider of register's SDK, as NodeSDK's (the exporters `OTEL_LOGS_EXPORTER`
 * names, batched, the `OTEL_BLRP_*` and `OTEL_LOGRECORD_*` variables), whose SDK is made when a
 * logger is first asked for: an app that writes no OpenTelemetry logs (most agents) never loads
 * the logs SDK and its exporter.
 */
export class LazyLoggerProvider {
  private provider?: SdkLoggerProvider;

  constructor(
    private readonly load: LoadPackage,
    private readonly exporters: readonly LogsExporterChoice[],
    private readonly resource: object,
    private readonly selfObsMeterProvider: MeterProvider | undefined,
  ) {}

  /**
   * Registers it with the logs API NodeSDK of the installed line registers with: `@opentelemetry/api`'s
   * own on the 3.x line, `@opentelemetry/api-logs` on the 2.x line (the 3.x line does not install it).
   */
  register(): void {
    const { load } = this;
    const { logs } = load<{ logs: LogsApi }>(sdkLine(load) === 3 ? '@opentelemetry/api' : '@opentelemetry/api-logs');
    logs.setGlobalLoggerProvider(this);
  }

  getLogger(name: string, version?: string, options?: object): Logger {
    this.provider ??= this.make();
    return this.provider.getLogger(name, version, options);
  }

  forceFlush(): Promise<void> {
    return this.provider?.forceFlush() ?? Promise.resolve();
  }

  shutdown(): Promise<void> {
    return this.provider?.shutdown() ?? Promise.resolve();
  }

  private make(): SdkLoggerProvider {
    const { load, selfObsMeterProvider } = this;
    const sdkLogs = load<SdkLogs>('@opentelemetry/sdk-logs');
    const processors = this.exporters.map((choice) => {
      if (choice.kind === 'console') {
        return new sdkLogs.SimpleLogRecordProcessor({
          exporter: new sdkLogs.ConsoleLogRecordExporter(),
          selfObsMeterProvider,
        });
      }
      const { OTLPLogExporter } = load<{ OTLPLogExporter: Constructor }>(
        `@opentelemetry/exporter-logs-otlp-${choice.flavour}`,
      );
      return new sdkLogs.BatchLogRecordProcessor({
        exporter: new OTLPLogExporter(),
        selfObsMeterProvider,
        maxQueueSize: positiveNumberFromEnv(load, 'OTEL_BLRP_MAX_QUEUE_SIZE'),
        scheduledDelayMillis: positiveNumberFromEnv(load, 'OTEL_BLRP_SCHEDULE_DELAY'),
        exportTimeoutMillis: positiveNumberFromEnv(load, 'OTEL_BLRP_EXPORT_TIMEOUT'),
        maxExportBatchSize: positiveNumberFromEnv(load, 'OTEL_BLRP_MAX_EXPORT_BATCH_SIZE'),
      });
    });
    return new sdkLogs.LoggerProvider({
      logRecordLimits: {
        attributeCountLimit:
          positiveNumberFromEnv(load, 'OTEL_LOGRECORD_ATTRIBUTE_COUNT_LIMIT') ??
          positiveNumberFromEnv(load, 'OTEL_ATTRIBUTE_COUNT_LIMIT'),
        attributeValueLengthLimit:
          positiveNumberFromEnv(load, 'OTEL_LOGRECORD_ATTRIBUTE_VALUE_LENGTH_LIMIT') ??
          positiveNumberFromEnv(load, 'OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT'),
      },
      resource: this.resource,
      processors,
      meterProvider: selfObsMeterProvider,
    });
  }
}
