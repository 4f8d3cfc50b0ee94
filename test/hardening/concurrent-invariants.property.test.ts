import { DiagLogLevel, diag } from '@opentelemetry/api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTelemetry } from '../helpers/otel-sdk.js';
import { checkTelemetry, runPlans } from './helpers/invocation-harness.js';
import { callPlanArbitrary, policyArbitrary, toolPoliciesArbitrary } from './helpers/tool-behaviours.js';

// Every diag warning or error (a span ended twice, a listener failure it caught) fails the run.
const diagnostics: string[] = [];
beforeAll(() => {
  const log = (...args: unknown[]) => void diagnostics.push(args.map(String).join(' '));
  diag.setLogger({ error: log, warn: log, info: () => {}, debug: () => {}, verbose: () => {} }, DiagLogLevel.WARN);
});
afterAll(() => diag.disable());

describe('random mixes of tool behaviours under random interleavings (fast-check scheduler)', () => {
  it('give one ended span per call with its own call id and child, exact metrics, and the policy outcome', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(callPlanArbitrary, { minLength: 1, maxLength: 24 }),
        policyArbitrary,
        toolPoliciesArbitrary,
        fc.boolean(),
        async (scheduler, plans, errorPolicy, toolErrorPolicies, otelFirst) => {
          const telemetry = createTestTelemetry();
          diagnostics.length = 0;
          try {
            const options = {
              telemetry,
              errorPolicy,
              toolErrorPolicies,
              otelFirst,
              idPrefix: 'call_',
              // every suspension point and every call start is a task the scheduler orders at random
              wait: () => scheduler.schedule(Promise.resolve(), 'wait'),
              gate: () => scheduler.schedule(Promise.resolve(), 'gate'),
            };
            const run = await scheduler.waitFor(runPlans(plans, options));
            const violations = [...run.violations, ...(await checkTelemetry(run, options)), ...diagnostics];
            expect(violations).toEqual([]);
          } finally {
            await telemetry.shutdown();
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
