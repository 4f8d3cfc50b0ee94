import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import {
  ATTR_GEN_AI_TOOL_NAME,
  METRIC_MCP_SERVER_OPERATION_DURATION,
  METRIC_MCP_SERVER_SESSION_DURATION,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, runUnderRegister } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

/*
 * An agent starts its MCP tool server over stdio, the server under register: the client (not under
 * register: its process exports nothing) calls a tool and leaves, the server's stdin ends, and the
 * server's process ends. 1.x's stdio transport fires no close at the end of stdin, so the session is
 * still open at the flush at exit: it is ended there, and its sample is in the last export.
 */
describe('zero-code: a stdio MCP server whose client leaves', () => {
  it.each([
    ['mcp-stdio-server.mjs', '1.x'],
    ['mcp-stdio-server-v2.mjs', '2.x'],
  ])(
    '%s (SDK %s) records mcp.server.session.duration once, ended at the exit flush when its transport never closed, with no error.type',
    async (server) => {
      const run = await runUnderRegister('mcp-stdio-client.mjs', {
        preload: 'none',
        // which server the client starts (a test variable, not the app's)
        env: { MCP_SERVER_FIXTURE: server },
        timeoutMs: 60_000,
      });
      expect(run.stderr).toBe('');
      expect([run.code, run.stdout]).toEqual([0, 'weather: sunny in Oslo\n']);

      const metric = (name: string) => run.metrics.find((found) => found.name === name);
      // the server's own telemetry was exported: its tool call
      expect(metric(METRIC_MCP_SERVER_OPERATION_DURATION)?.points).toContainEqual(
        expect.objectContaining({ [ATTR_GEN_AI_TOOL_NAME]: 'weather' }),
      );
      const session = metric(METRIC_MCP_SERVER_SESSION_DURATION);
      expect(session?.total).toBe(1);
      // nothing was in flight when the client left: an ordinary end
      expect(session?.points.map((point) => point[ATTR_ERROR_TYPE])).toEqual([undefined]);
    },
    90_000,
  );
});
