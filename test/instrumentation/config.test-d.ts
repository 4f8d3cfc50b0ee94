import type { Instrumentation } from '@opentelemetry/instrumentation';
import type { NodeSDKConfiguration } from '@opentelemetry/sdk-node';
import type { OpenTelemetryToolCallListenerOptions } from 'otel-tool-calls';
import { ToolCallsInstrumentation, type ToolCallsInstrumentationConfig } from 'otel-tool-calls/instrumentation';
import { describe, expectTypeOf, it } from 'vitest';

describe('ToolCallsInstrumentationConfig', () => {
  it("is the listener's options plus `enabled`", () => {
    expectTypeOf<ToolCallsInstrumentationConfig>().toExtend<OpenTelemetryToolCallListenerOptions>();
    expectTypeOf<ToolCallsInstrumentationConfig['enabled']>().toEqualTypeOf<boolean | undefined>();
    new ToolCallsInstrumentation({ enabled: false, errorPolicy: 'report', toolErrorPolicies: { pay: 'rethrow' } });
    // @ts-expect-error not an option
    new ToolCallsInstrumentation({ errorPolicy: 'ignore' });
  });

  it('is an OpenTelemetry Instrumentation, for NodeSDK and registerInstrumentations', () => {
    expectTypeOf<ToolCallsInstrumentation>().toExtend<Instrumentation<ToolCallsInstrumentationConfig>>();
    expectTypeOf([new ToolCallsInstrumentation()]).toExtend<NonNullable<NodeSDKConfiguration['instrumentations']>>();
  });
});
