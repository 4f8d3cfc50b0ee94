import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestTelemetry } from '../helpers/otel-sdk.js';
import { checkTelemetry, runPlans } from './helpers/invocation-harness.js';
import { type CallPlan, callPlanArbitrary, reportErrorsOnly } from './helpers/tool-behaviours.js';

const CALLS = 100_000;
const IN_FLIGHT = 1_000;
const tick = () => new Promise((resolve) => setImmediate(resolve));

// The tools' own stack traces are not under test, and with source maps each one costs more than
// the whole instrumented call: without them the run stays well inside the suite's time budget.
let stackTraceLimit = Error.stackTraceLimit;
beforeEach(() => {
  stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
});
afterEach(() => {
  Error.stackTraceLimit = stackTraceLimit;
});

describe('load', () => {
  it('100,000 mixed calls with 1,000 in flight keep every invariant of the property test', async () => {
    // a fixed seed: the same mix every run, covering every mode and outcome
    const plans: CallPlan[] = fc.sample(callPlanArbitrary, { numRuns: CALLS, seed: 20_240_601 });
    const telemetry = createTestTelemetry();
    try {
      const options = {
        telemetry,
        errorPolicy: 'report' as const,
        toolErrorPolicies: { fetch: 'rethrow' as const, email: reportErrorsOnly },
        otelFirst: true,
        idPrefix: 'load_',
        wait: tick,
        gate: tick,
        inFlight: IN_FLIGHT,
      };
      const run = await runPlans(plans, options);
      expect(run.records.size).toBe(CALLS);
      expect(run.maxInFlight).toBe(IN_FLIGHT);
      const violations = [...run.violations, ...(await checkTelemetry(run, options))];
      expect(violations.slice(0, 20)).toEqual([]);
      expect(telemetry.spans().filter((span) => span.name.startsWith('execute_tool '))).toHaveLength(CALLS);
    } finally {
      await telemetry.shutdown();
    }
  }, 120_000);
});
