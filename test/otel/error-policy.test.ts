import { SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { type ErrorPolicy, functionToolCallback, type ToolCallInfo, ToolCallListeners } from 'otel-tool-calls';
import { ATTR_TOOL_CALL_ERROR_OUTCOME, METRIC_TOOL_CALL_ERRORS } from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();

const listener = telemetry.listener;

class ValidationError extends Error {
  override name = 'ValidationError' as const;
}
const failingWith = (name: string, error: unknown) =>
  functionToolCallback({ name }, async (): Promise<string> => {
    throw error;
  });

describe('error policy', () => {
  it("defaults to 'rethrow': the same error reaches the caller, as without telemetry", async () => {
    const error = new Error('boom');
    await expect(ToolCallListeners.wrap(failingWith('t', error), listener()).call(undefined)).rejects.toBe(error);
    expect(telemetry.span('execute_tool t').attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('rethrown');
  });

  it("'report' returns the default text to the model and still records an error on span and metrics", async () => {
    const result = await ToolCallListeners.wrap(
      failingWith('weather', new Error('city not found')),
      listener({ errorPolicy: 'report' }),
    ).call(undefined);
    expect(result).toBe("Tool 'weather' failed: city not found");
    const span = telemetry.span('execute_tool weather');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('reported');
    const [point] = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(point?.value).toBe(1);
    expect(point?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('reported');
  });

  it('never puts a stack trace in the reported text, and bounds its length', async () => {
    const error = new Error(`first line\n    at secret (/srv/app/internal.js:1:1)\n${'x'.repeat(10_000)}`);
    const text = await ToolCallListeners.wrap(failingWith('t', error), listener({ errorPolicy: 'report' })).call(
      undefined,
    );
    expect(text).not.toContain('internal.js');
    expect(text).not.toContain(error.stack?.split('\n')[1]?.trim() ?? 'never');
    expect(text.length).toBeLessThanOrEqual(1100);
    expect(text.startsWith("Tool 't' failed: first line")).toBe(true);
  });

  it("'report' does not prefix a message that already is the report text of the same tool (a remote tool's report)", async () => {
    const observed = listener({ errorPolicy: 'report' });
    const reported = new Error("Tool 'weather' failed: city not found");
    await expect(ToolCallListeners.wrap(failingWith('weather', reported), observed).call(undefined)).resolves.toBe(
      "Tool 'weather' failed: city not found",
    );
    // another tool's report is this tool's failure message
    await expect(ToolCallListeners.wrap(failingWith('agent', reported), observed).call(undefined)).resolves.toBe(
      "Tool 'agent' failed: Tool 'weather' failed: city not found",
    );
  });

  it('reports thrown non-Errors with a readable text', async () => {
    const observed = listener({ errorPolicy: 'report' });
    await expect(ToolCallListeners.wrap(failingWith('s', 'quota exceeded'), observed).call(undefined)).resolves.toBe(
      "Tool 's' failed: quota exceeded",
    );
    await expect(ToolCallListeners.wrap(failingWith('u', undefined), observed).call(undefined)).resolves.toBe(
      "Tool 'u' failed: undefined",
    );
  });

  it('applies per-tool overrides over the listener policy', async () => {
    const observed = listener({ errorPolicy: 'rethrow', toolErrorPolicies: { search: 'report' } });
    await expect(ToolCallListeners.wrap(failingWith('search', new Error('x')), observed).call(undefined)).resolves.toBe(
      "Tool 'search' failed: x",
    );
    await expect(
      ToolCallListeners.wrap(failingWith('email', new Error('y')), observed).call(undefined),
    ).rejects.toThrow('y');
  });

  it('asks a policy function with the error and the call', async () => {
    const asked: Array<[unknown, ToolCallInfo]> = [];
    const policy: ErrorPolicy = (error, call) => {
      asked.push([error, call]);
      return error instanceof ValidationError ? 'report' : 'rethrow';
    };
    const observed = listener({ errorPolicy: policy });
    const invalid = new ValidationError('`city` is required');
    await expect(
      ToolCallListeners.wrap(failingWith('weather', invalid), observed).call({}, { toolCallId: 'c1' }),
    ).resolves.toBe("Tool 'weather' failed: `city` is required");
    await expect(ToolCallListeners.wrap(failingWith('weather', new Error('500')), observed).call({})).rejects.toThrow(
      '500',
    );
    expect(asked[0]?.[0]).toBe(invalid);
    expect(asked[0]?.[1].toolCallId).toBe('c1');
    expect(telemetry.spans().map((span) => span.attributes[ATTR_ERROR_TYPE])).toEqual(['ValidationError', 'Error']);
  });

  it('rethrows when a policy function throws or answers something else', async () => {
    const throwing = listener({
      errorPolicy: () => {
        throw new Error('policy bug');
      },
    });
    const original = new Error('tool failure');
    await expect(ToolCallListeners.wrap(failingWith('a', original), throwing).call(undefined)).rejects.toBe(original);
    const nonsense = listener({ errorPolicy: (() => 'ignore') as unknown as ErrorPolicy });
    await expect(ToolCallListeners.wrap(failingWith('b', original), nonsense).call(undefined)).rejects.toBe(original);
  });

  it('rethrows an aborted call even under report, unless a policy function decides', async () => {
    const controller = new AbortController();
    controller.abort();
    const abortError = new DOMException('aborted', 'AbortError');
    const tool = failingWith('long', abortError);
    await expect(
      ToolCallListeners.wrap(tool, listener({ errorPolicy: 'report' })).call(undefined, { signal: controller.signal }),
    ).rejects.toBe(abortError);
    await expect(
      ToolCallListeners.wrap(tool, listener({ errorPolicy: () => 'report' })).call(undefined, {
        signal: controller.signal,
      }),
    ).resolves.toBe("Tool 'long' failed: aborted");
    expect(telemetry.spans().map((span) => span.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME])).toEqual([
      'rethrown',
      'reported',
    ]);
  });

  it('uses formatError for the reported text, and the default text if formatError throws', async () => {
    const custom = listener({
      errorPolicy: 'report',
      formatError: (name, error) => `[${name}] ${(error as Error).message}. Try another query.`,
    });
    await expect(
      ToolCallListeners.wrap(failingWith('search', new Error('timeout')), custom).call(undefined),
    ).resolves.toBe('[search] timeout. Try another query.');
    const broken = listener({
      errorPolicy: 'report',
      formatError: () => {
        throw new Error('formatter bug');
      },
    });
    await expect(
      ToolCallListeners.wrap(failingWith('search', new Error('timeout')), broken).call(undefined),
    ).resolves.toBe("Tool 'search' failed: timeout");
  });
});
