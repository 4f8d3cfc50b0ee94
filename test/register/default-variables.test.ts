import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, runUnderRegister, sdkLine, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

describe(`otel-tool-calls/register with the variables a user sets (SDK ${sdkLine}.x)`, () => {
  it('with only OTEL_SERVICE_NAME and OTEL_EXPORTER_OTLP_ENDPOINT set, the app starts, and its spans, metrics and log records are exported over OTLP/protobuf (the logs exporter default, otlp, included)', async () => {
    const run = await runUnderRegister('default-variables.mjs', {
      // NodeSDK's defaults for everything else: the receiver gets protobuf, read here as bytes
      env: { OTEL_EXPORTER_OTLP_PROTOCOL: undefined, OTEL_METRIC_EXPORT_INTERVAL: undefined },
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('hello\n');
    const received = (path: string) => run.requests.filter((request) => request.path === path);
    for (const path of ['/v1/traces', '/v1/metrics', '/v1/logs']) {
      expect(
        received(path).map((request) => request.contentType),
        path,
      ).toEqual(['application/x-protobuf']);
    }
    // protobuf carries strings as they are
    const body = (path: string) => received(path)[0]?.body.toString('latin1');
    expect(body('/v1/traces')).toContain('execute_tool echo');
    expect(body('/v1/metrics')).toContain('gen_ai.execute_tool.duration');
    expect(body('/v1/logs')).toContain('request handled');
    for (const path of ['/v1/traces', '/v1/metrics', '/v1/logs']) expect(body(path), path).toContain('zero-code-app');
  });

  it("the resource is NodeSDK's of the line: its default detectors (3.x adds the OS), and a service instance id on both", async () => {
    const run = await runUnderRegister('exit-code.mjs');
    const [span] = toolSpans(run);
    expect(span?.resource).toMatchObject({ 'service.name': 'zero-code-app', 'process.pid': expect.any(Number) });
    expect(span?.resource).toHaveProperty('host.name');
    expect(span?.resource['os.type'] !== undefined, 'os.type (the 3.x line only)').toBe(sdkLine === 3);
    // each process its own instance (NodeSDK 2.x sets none: replicas pushing to a backend would share a series)
    expect(span?.resource['service.instance.id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('OTEL_PROPAGATORS=jaeger: as NodeSDK of the line, a deprecation warning on 2.x, "unavailable" on 3.x (no Jaeger propagator there), and the app runs', async () => {
    const run = await runUnderRegister('exit-code.mjs', {
      env: { OTEL_PROPAGATORS: 'jaeger', OTEL_LOG_LEVEL: 'warn' },
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      sdkLine === 3
        ? 'Propagator "jaeger" requested through environment variable is unavailable.'
        : 'The Jaeger propagator is deprecated',
    );
  });
});
