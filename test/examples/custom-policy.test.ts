import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import {
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  TOOL_CALL_ERROR_OUTCOME_VALUE_REPORTED,
  TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { bookTable, scriptedModel } from '../../examples/custom-policy/booking-agent.js';
import { reportInvalidInput, ToolInputError } from '../../examples/custom-policy/report-invalid-input.js';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

const repoRoot = new URL('../..', import.meta.url).pathname;

const telemetry = useTestTelemetry();

/** The tool results the model was given in the prompt of its `index`-th call. */
function toolOutputsSeenByModel(model: ReturnType<typeof scriptedModel>, index: number): unknown[] {
  return (model.doGenerateCalls[index]?.prompt ?? [])
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content)
    .map((part) => (part.type === 'tool-result' ? part.output : part));
}

describe('examples/custom-policy', () => {
  it('decides report for a ToolInputError and rethrow for anything else, aborts included', () => {
    expect(reportInvalidInput(new ToolInputError('opens at 18:00'))).toBe('report');
    expect(reportInvalidInput(new Error('ECONNREFUSED'))).toBe('rethrow');
    expect(reportInvalidInput(new DOMException('aborted', 'AbortError'))).toBe('rethrow');
    expect(reportInvalidInput('a thrown string')).toBe('rethrow');
  });

  it('reports an input mistake to the model, which retries with fixed input', async () => {
    const listener = telemetry.listener({ errorPolicy: reportInvalidInput });
    const model = scriptedModel('Luigi');

    const result = await bookTable('Luigi', model, listener);

    expect(toolOutputsSeenByModel(model, 1)).toEqual([
      { type: 'text', value: "Tool 'book_table' failed: Luigi opens at 18:00; 17:00 cannot be booked" },
    ]);
    expect(result.text).toBe('Booked Luigi for 4 at 19:00.');
    const [rejected, booked] = telemetry.spans();
    expect(telemetry.spans()).toHaveLength(2);
    expect(rejected?.status.code).toBe(SpanStatusCode.ERROR);
    expect(rejected?.attributes[ATTR_ERROR_TYPE]).toBe('ToolInputError');
    expect(rejected?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe(TOOL_CALL_ERROR_OUTCOME_VALUE_REPORTED);
    expect(booked?.status.code).toBe(SpanStatusCode.UNSET);
    expect(booked?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBeUndefined();
  });

  it('rethrows an outage: the AI SDK gets the original error as a tool-error and the run stops there', async () => {
    const listener = telemetry.listener({ errorPolicy: reportInvalidInput });
    const model = scriptedModel('Sakura');

    const result = await bookTable('Sakura', model, listener);

    const toolError = result.steps.flatMap((step) => step.content).find((part) => part.type === 'tool-error');
    expect(toolError?.error).toMatchObject({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 10.0.4.7:443' });
    expect(model.doGenerateCalls).toHaveLength(2); // not asked again after the outage
    expect(result.text).toBe('');
    const outage = telemetry.spans()[1];
    expect(outage?.attributes[ATTR_ERROR_TYPE]).toBe('ECONNREFUSED');
    expect(outage?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe(TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN);
  });

  it('without the policy (default rethrow), the same input mistake ends the run at the first call', async () => {
    const listener = telemetry.listener();
    const model = scriptedModel('Luigi');

    const result = await bookTable('Luigi', model, listener);

    const toolError = result.steps.flatMap((step) => step.content).find((part) => part.type === 'tool-error');
    expect(toolError?.error).toBeInstanceOf(ToolInputError);
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(telemetry.spans()[0]?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe(TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN);
  });

  it('runs as a script and prints each run and the spans with their outcomes', async () => {
    const { stdout } = await promisify(execFile)('npx', ['tsx', 'examples/custom-policy/main.ts'], { cwd: repoRoot });

    expect(stdout).toContain('model says   Booked Luigi for 4 at 19:00.');
    expect(stdout).toContain('tool error   Error: connect ECONNREFUSED 10.0.4.7:443 (rethrown: the run stops)');
    expect(stdout.slice(stdout.indexOf('# execute_tool spans')).trim().split('\n')).toEqual([
      '# execute_tool spans',
      'execute_tool book_table  ToolInputError, reported',
      'execute_tool book_table  ok',
      'execute_tool book_table  ToolInputError, reported',
      'execute_tool book_table  ECONNREFUSED, rethrown',
    ]);
  });
});
