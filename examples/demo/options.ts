// The demo's command line: flags, their defaults, and a usage text that names every one.
import { parseArgs } from 'node:util';

export interface DemoOptions {
  /** How long new agent runs are started, in seconds; runs in flight then finish. */
  readonly durationSeconds: number;
  /** Agent runs started per second, over all agents. */
  readonly runsPerSecond: number;
  /** Agents working concurrently, each one run at a time. */
  readonly agents: number;
  /** The Prometheus endpoint's port; undefined: OTEL_EXPORTER_PROMETHEUS_PORT, else 9464. */
  readonly metricsPort: number | undefined;
}

export const USAGE = `Usage: npx tsx examples/demo/main.ts [options]

Simulated AI agents (AI SDK generateText with a scripted mock model) calling tools under
OpenTelemetryToolCallListener. Prints a per-tool summary and the span tree of one run.

  --duration <seconds>    start runs for this long (default 20)
  --rate <runs/s>         agent runs started per second, over all agents (default 3)
  --agents <n>            concurrent agents, each one run at a time (default 6)
  --metrics-port <port>   Prometheus endpoint port (default OTEL_EXPORTER_PROMETHEUS_PORT, else 9464)
  --help                  this text

Standard OpenTelemetry variables apply: OTEL_EXPORTER_OTLP_ENDPOINT (traces, default
http://localhost:4318), OTEL_EXPORTER_PROMETHEUS_HOST, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES.`;

/** Parses the flags; throws a `TypeError` naming the flag for a value that makes no sense. */
export function parseDemoOptions(argv: readonly string[]): DemoOptions | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      duration: { type: 'string', default: '20' },
      rate: { type: 'string', default: '3' },
      agents: { type: 'string', default: '6' },
      'metrics-port': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const metricsPort = values['metrics-port'];
  return {
    durationSeconds: positiveNumber('--duration', values.duration),
    runsPerSecond: positiveNumber('--rate', values.rate),
    agents: integerIn('--agents', values.agents, 1, 1000),
    metricsPort: metricsPort === undefined ? undefined : integerIn('--metrics-port', metricsPort, 0, 65535),
  };
}

function positiveNumber(flag: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`${flag} must be a positive number, got '${raw}'`);
  return value;
}

function integerIn(flag: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new TypeError(`${flag} must be an integer from ${min} to ${max}, got '${raw}'`);
  }
  return value;
}
