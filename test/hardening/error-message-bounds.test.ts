import { SpanStatusCode } from '@opentelemetry/api';
import { functionToolCallback, ToolCallListeners } from 'otel-tool-calls';
import { describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();

/** A message as a remote MCP server could send it in an `isError` text. */
const manyNewlines = (count: number) => `boom${'\n'.repeat(count)}   at remote (server.js:1:1)\nmore`;

describe('an error message is bounded before it is scanned', () => {
  it('a message of 100,000 newlines is reported and recorded in linear work, not seconds', async () => {
    const tool = functionToolCallback({ name: 'remote' }, () => {
      throw new Error(manyNewlines(100_000));
    });
    const wrapped = ToolCallListeners.wrap(tool, telemetry.listener({ errorPolicy: 'report' }));
    // Quadratic before (about 12 s for the status message and as much again for the report text);
    // linear now: a few milliseconds. The limit is generous on purpose, for a shared CPU.
    const started = performance.now();
    const text = wrapped.call(undefined) as string;
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(1500);
    expect(text.startsWith("Tool 'remote' failed: boom")).toBe(true);
    expect(text.length).toBeLessThanOrEqual(1100);
    const span = telemetry.span('execute_tool remote');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.status.message).toBe('boom');
  });

  it('stack lines are still stripped, and a 10 MB message is cut to about 1 KB', () => {
    const embedded = new Error('first line\n    at secret (internal.js:10:5)\n  at other (x.js:1:1)\nlast line');
    const huge = new Error(`${'x'.repeat(10 * 1024 * 1024)}\n    at hidden (file.js:1:1)`);
    const fail = (error: Error) =>
      ToolCallListeners.wrap(
        functionToolCallback({ name: 'fails' }, () => {
          throw error;
        }),
        telemetry.listener({ errorPolicy: 'report' }),
      ).call(undefined) as string;
    const text = fail(embedded);
    expect(text).not.toMatch(/\bat (secret|other)\b/);
    expect(text).toContain('first line');
    expect(text).toContain('last line');
    const long = fail(huge);
    expect(long.length).toBeLessThanOrEqual(1100);
    expect(long).not.toContain('hidden');
  });
});
