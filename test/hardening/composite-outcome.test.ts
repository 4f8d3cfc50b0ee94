import { functionToolCallback, type ToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import { ATTR_TOOL_CALL_ERROR_OUTCOME, METRIC_TOOL_CALL_ERRORS } from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();

const failure = new Error('quota exceeded');
const fails = functionToolCallback({ name: 'fails' }, async () => {
  throw failure;
});
/** An audit listener that reports every failure to the model itself. */
const reportingAudit: ToolCallListener = { onError: () => 'audit: the tool failed, try another' };
const throwingAudit: ToolCallListener = {
  onError: () => {
    throw new Error('audit bug');
  },
};

async function outcomes() {
  const span = telemetry.span('execute_tool fails');
  const counted = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
  return {
    span: span.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME],
    counter: counted.map((point) => [point.attributes[ATTR_TOOL_CALL_ERROR_OUTCOME], point.value]),
  };
}

describe('in a composite, the span and the counter tell the outcome the caller saw', () => {
  it.each([true, false])(
    "otel('rethrow') with an audit listener that reports (otel first: %s): outcome reported",
    async (otelFirst) => {
      const otel = telemetry.listener({ errorPolicy: 'rethrow' });
      const listener = ToolCallListeners.composite(...(otelFirst ? [otel, reportingAudit] : [reportingAudit, otel]));
      await expect(ToolCallListeners.wrap(fails, listener).call(undefined)).resolves.toBe(
        'audit: the tool failed, try another',
      );
      expect(await outcomes()).toEqual({ span: 'reported', counter: [['reported', 1]] });
    },
  );

  it("otel('report') with an audit listener whose onError throws: the caller gets an error, outcome rethrown", async () => {
    const listener = ToolCallListeners.composite(telemetry.listener({ errorPolicy: 'report' }), throwingAudit);
    await expect(ToolCallListeners.wrap(fails, listener).call(undefined)).rejects.toThrow('audit bug');
    expect(await outcomes()).toEqual({ span: 'rethrown', counter: [['rethrown', 1]] });
  });

  it('alone, the listener still records its own decision', async () => {
    await expect(
      ToolCallListeners.wrap(fails, telemetry.listener({ errorPolicy: 'rethrow' })).call(undefined),
    ).rejects.toBe(failure);
    expect(await outcomes()).toEqual({ span: 'rethrown', counter: [['rethrown', 1]] });
  });
});
