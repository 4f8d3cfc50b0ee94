import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SDK_PACKAGES } from './default-sdk-packages.js';
import { buildPackageIfMissing, runUnderRegister } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

/** The packages an app under register has loaded, as the fixture prints them. */
async function loadedUnder(env: Record<string, string | undefined>): Promise<string[]> {
  const run = await runUnderRegister('loaded-packages.cjs', { env });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as string[];
}

/** What NodeSDK loads whatever the variables say, and a default configuration does not use. */
const NOT_SELECTED_BY_DEFAULT = [
  '@opentelemetry/sdk-node',
  '@opentelemetry/exporter-trace-otlp-grpc',
  '@opentelemetry/exporter-metrics-otlp-grpc',
  '@opentelemetry/exporter-logs-otlp-grpc',
  '@opentelemetry/exporter-zipkin',
  '@opentelemetry/exporter-prometheus',
  '@opentelemetry/propagator-b3',
  '@opentelemetry/propagator-jaeger',
  // the logs SDK waits for a logger to be asked for
  '@opentelemetry/sdk-logs',
  '@opentelemetry/exporter-logs-otlp-proto',
  // a framework the app does not use
  '@openai/agents',
  '@openai/agents-core',
];

describe('otel-tool-calls/register: a lean start', () => {
  it('the default variables load the trace and metrics SDKs and their OTLP/protobuf exporters, nothing else of the SDK, and no framework', async () => {
    const loaded = await loadedUnder({ OTEL_EXPORTER_OTLP_PROTOCOL: undefined });
    expect(loaded).toEqual(expect.arrayContaining([...DEFAULT_SDK_PACKAGES]));
    for (const name of NOT_SELECTED_BY_DEFAULT) expect(loaded, name).not.toContain(name);
  });

  it('what a variable selects is loaded when it selects it: Prometheus, B3, the OTLP/JSON exporters', async () => {
    const loaded = await loadedUnder({
      OTEL_METRICS_EXPORTER: 'prometheus',
      OTEL_EXPORTER_PROMETHEUS_PORT: '0',
      OTEL_PROPAGATORS: 'b3',
    });
    expect(loaded).toEqual(
      expect.arrayContaining([
        '@opentelemetry/exporter-prometheus',
        '@opentelemetry/propagator-b3',
        '@opentelemetry/exporter-trace-otlp-http',
      ]),
    );
    expect(loaded).not.toContain('@opentelemetry/exporter-metrics-otlp-proto');
    expect(loaded).not.toContain('@opentelemetry/sdk-node');
  });
});

describe('otel-tool-calls/register: the SDK loads before the require hook', () => {
  it("no file of the SDK's packages is loaded through require-in-the-middle: the instrumentation is made once they are loaded", async () => {
    // require-in-the-middle's own debug log names each require() its hook processes
    const run = await runUnderRegister('loaded-packages.cjs', {
      env: { DEBUG: 'require-in-the-middle', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' },
    });
    expect(run.code).toBe(0);
    const processed = run.stderr.split('\n').filter((line) => line.includes('require-in-the-middle processing'));
    // the hook is installed: the SDK's start asks it for what it has loaded already
    expect(processed.length).toBeGreaterThan(0);
    // a package's own relative require()s go through the hook only when the package is first loaded
    const sdkFilesLoadedThroughIt = processed.filter(
      (line) =>
        /require\('\.\.?\/[^']*'\): \S*node_modules\/@opentelemetry\//.test(line) &&
        // the one the SDK loads later by itself: the 3.x host detector reads the machine id
        // asynchronously, and loads its reader then
        !/\/machine-id\/getMachineId-[a-z]+\.cjs$/.test(line),
    );
    expect(sdkFilesLoadedThroughIt).toEqual([]);
  });
});
