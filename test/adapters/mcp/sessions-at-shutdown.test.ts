import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { instrumentClient, instrumentServer } from 'otel-tool-calls/mcp';
import { METRIC_MCP_CLIENT_SESSION_DURATION, METRIC_MCP_SERVER_SESSION_DURATION } from 'otel-tool-calls/semconv';
import { startToolCallTelemetry } from 'otel-tool-calls/setup';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startOtlpReceiver } from '../../helpers/otlp-receiver.js';
import { metricsOf } from '../../register/run-app.js';
import { connectLine, SDK_LINES, type TestClient, type TestServer } from './sdks.js';

/*
 * A session whose connection never closes before the app ends its telemetry (a 1.x stdio server
 * whose client left: its transport fires no close; a client the app never closes) is ended by
 * `startToolCallTelemetry().shutdown()`, so that its duration is in the last export.
 */

afterEach(() => {
  vi.unstubAllEnvs();
});

describe.each(SDK_LINES)('MCP sessions still open at startToolCallTelemetry().shutdown(), SDK $name', (sdk) => {
  it('each side’s session still open is recorded once, ended at the shutdown, with no error.type when nothing was in flight', async () => {
    const receiver = await startOtlpReceiver();
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.url);
    const telemetry = startToolCallTelemetry({ serviceName: 'mcp-sessions', traces: 'none', metrics: 'otlp' });
    try {
      const listener = new OpenTelemetryToolCallListener();
      const server = instrumentServer(sdk.newServer() as never, listener) as unknown as TestServer;
      server.registerTool('weather', { description: 'Weather' }, async () => ({
        content: [{ type: 'text', text: 'sunny' }],
      }));
      const client = instrumentClient(sdk.newClient() as never, listener) as unknown as TestClient;
      await connectLine(sdk, server, client);
      await client.callTool({ name: 'weather', arguments: {} });
      // the server forgets a request a few microtasks after sending its answer (1.x): done answering
      await new Promise((resolve) => setImmediate(resolve));

      await telemetry.shutdown(); // neither side closed its connection

      const metrics = metricsOf(receiver.requests);
      for (const name of [METRIC_MCP_CLIENT_SESSION_DURATION, METRIC_MCP_SERVER_SESSION_DURATION]) {
        const session = metrics.filter((metric) => metric.name === name);
        expect([name, session.reduce((total, metric) => total + metric.total, 0)]).toEqual([name, 1]);
        expect([name, session[0]?.points.map((point) => point[ATTR_ERROR_TYPE])]).toEqual([name, [undefined]]);
      }
    } finally {
      await telemetry.shutdown();
      await receiver.close();
    }
  });
});
