import { createRequire } from 'node:module';
import { ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { ToolCallsInstrumentation } from 'otel-tool-calls/instrumentation';
import { wrapTools } from 'otel-tool-calls/langchain';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_TOOL_CALL_ERROR_OUTCOME,
  ATTR_TOOL_CALL_ERROR_SOURCE,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_CALL_ERRORS,
} from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestTelemetry, useTestTelemetry } from '../../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();

const weather = tool(async ({ city }) => `sunny in ${city}`, {
  name: 'weather',
  description: 'Current weather',
  schema: z.object({ city: z.string() }),
});
const badCall = { name: 'weather', args: { city: 42 }, id: 'call_7', type: 'tool_call' as const };

const errorCount = async () =>
  (await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS)).reduce((n, point) => n + point.value, 0);

describe('LangChain: a ToolCall whose arguments fail the schema is a call the model got wrong', () => {
  it('is one failed span, sample and error (ToolInputParsingException), and LangChain still throws it', async () => {
    const [wrapped] = wrapTools([weather], telemetry.listener());

    const thrown = await wrapped.invoke(badCall as never).catch((error: unknown) => error);

    expect((thrown as Error).constructor.name).toBe('ToolInputParsingException');
    const span = telemetry.span('execute_tool weather');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes).toMatchObject({
      [ATTR_ERROR_TYPE]: 'ToolInputParsingException',
      [ATTR_GEN_AI_TOOL_CALL_ID]: 'call_7',
      [ATTR_TOOL_CALL_ERROR_SOURCE]: 'model',
      [ATTR_TOOL_CALL_ERROR_OUTCOME]: 'rethrown',
    });
    const [sample] = await telemetry.histogramPoints(METRIC_GEN_AI_EXECUTE_TOOL_DURATION);
    expect(sample?.value.count).toBe(1);
    expect(sample?.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBe('model');
    expect(await errorCount()).toBe(1);
  });

  it("errorPolicy 'report': the model gets a ToolMessage with status 'error' and the listener's text", async () => {
    const [wrapped] = wrapTools([weather], telemetry.listener({ errorPolicy: 'report' }));

    const message = (await wrapped.invoke(badCall as never)) as unknown as ToolMessage;

    expect(message).toBeInstanceOf(ToolMessage);
    expect(message.status).toBe('error');
    expect(message.tool_call_id).toBe('call_7');
    expect(String(message.content)).toMatch(
      /^Tool 'weather' failed: Received tool input did not match expected schema/,
    );
  });

  it("a nested tool's rejected input inside the body is the outer tool's own failure, counted once", async () => {
    const [inner] = wrapTools([weather], telemetry.listener());
    const outer = tool(async () => inner.invoke({ city: 42 } as never), {
      name: 'forecast',
      schema: z.object({}),
    });
    const [wrappedOuter] = wrapTools([outer], telemetry.listener());

    await expect(wrappedOuter.invoke({ name: 'forecast', args: {}, id: 'call_8', type: 'tool_call' })).rejects.toThrow(
      /did not match expected schema/,
    );

    expect(telemetry.span('execute_tool weather').attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBe('model');
    const forecast = telemetry.span('execute_tool forecast');
    expect(forecast.attributes[ATTR_ERROR_TYPE]).toBe('ToolInputParsingException');
    expect(forecast.attributes[ATTR_TOOL_CALL_ERROR_SOURCE]).toBeUndefined();
    expect(await errorCount()).toBe(2);
  });

  it('under zero-code (the StructuredTool.prototype.call patch), the same record', async () => {
    const own = createTestTelemetry();
    const instrumentation = new ToolCallsInstrumentation({ enabled: false });
    instrumentation.setTracerProvider(own.tracerProvider);
    instrumentation.setMeterProvider(own.meterProvider);
    instrumentation.enable();
    const tools = createRequire(import.meta.url)('@langchain/core/tools') as typeof import('@langchain/core/tools');
    const file = instrumentation
      .getModuleDefinitions()
      .find((definition) => definition.name === '@langchain/core' && definition.supportedVersions[0] !== '*')
      ?.files.find((candidate) => candidate.name.endsWith('/dist/tools/index.cjs'));
    file?.patch(tools);
    try {
      const plain = tools.tool(async ({ city }: { city: string }) => `sunny in ${city}`, {
        name: 'weather',
        schema: z.object({ city: z.string() }),
      });
      await expect(plain.invoke(badCall as never)).rejects.toThrow(/did not match expected schema/);
      const [span] = own.spans();
      expect(span?.name).toBe('execute_tool weather');
      expect(span?.attributes[ATTR_ERROR_TYPE]).toBe('ToolInputParsingException');
      expect(span?.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('call_7');
    } finally {
      file?.unpatch(tools);
      instrumentation.disable();
      await own.shutdown();
    }
  });
});
