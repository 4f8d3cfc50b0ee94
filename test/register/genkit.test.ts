import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
  TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN,
} from 'otel-tool-calls/semconv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildPackageIfMissing, runUnderRegister, toolSpans } from './run-app.js';

beforeAll(buildPackageIfMissing, 120_000);

describe('zero-code: a Genkit app with no telemetry code', () => {
  it.each([
    ['genkit.mjs', 'import'],
    ['genkit.cjs', 'require'],
  ] as const)(
    "%s under --%s: one span per call (Genkit's own), the call id, the failure counted, the result unchanged",
    async (fixture, preload) => {
      const run = await runUnderRegister(fixture, { preload });

      expect(run.code).toBe(0);
      expect(run.stdout).toBe('sunny in Oslo\nfailed: no forecast for Atlantis\n');
      const spans = toolSpans(run);
      expect(spans.map((span) => [span.name, span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]])).toEqual([
        ['weather', 'call_Oslo'],
        ['forecast', 'call_Atlantis'],
      ]);
      expect(spans.every((span) => span.attributes['genkit:type'] === 'action')).toBe(true);
      const failed = spans[1];
      expect(failed?.status.code).toBe(2);
      expect(failed?.attributes[ATTR_ERROR_TYPE]).toBe('RangeError');
      expect(failed?.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe(TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN);
      expect(run.metrics.find((metric) => metric.name === METRIC_GEN_AI_EXECUTE_TOOL_DURATION)?.total).toBe(2);
      expect(run.metrics.find((metric) => metric.name === METRIC_TOOL_CALL_ERRORS)?.total).toBe(1);
    },
  );
});

describe("zero-code: a Genkit app that enables Genkit's telemetry itself", () => {
  it("an app that enables Genkit's telemetry itself gets it: its span processor gets the tool spans, register's SDK the metrics", async () => {
    const run = await runUnderRegister('genkit-own-telemetry.mjs');

    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'sunny in Oslo\nfailed: no forecast for Atlantis\n' +
        'own processor got: weather call_Oslo -, forecast call_Atlantis RangeError\n',
    );
    // Genkit's SDK is the app's now (register gives way to an SDK the app starts); it has no meter
    // provider, so the calls' samples still reach register's exporter
    expect(run.metrics.find((metric) => metric.name === METRIC_GEN_AI_EXECUTE_TOOL_DURATION)?.total).toBe(2);
    expect(run.metrics.find((metric) => metric.name === METRIC_TOOL_CALL_ERRORS)?.total).toBe(1);
  });
});
