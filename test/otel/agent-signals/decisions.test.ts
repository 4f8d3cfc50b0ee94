import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as api from '@opentelemetry/api';
import { context, trace } from '@opentelemetry/api';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { functionToolCallback, type ToolCallDecision, type ToolCallListener, ToolCallListeners } from 'otel-tool-calls';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  EVENT_GEN_AI_TOOL_CALL_DECISION,
  METRIC_TOOL_CALL_APPROVAL_DURATION,
} from 'otel-tool-calls/semconv';
import { afterEach, describe, expect, it } from 'vitest';
import { tellDecision } from '../../../src/internal/tell-decision.js';
import { registeredLoggerProvider } from '../../../src/otel/decision-log.js';
import { useDiagLog } from '../../helpers/diag-log.js';
import { useTestTelemetry } from '../../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();
const logged = useDiagLog();

function inMemoryLogs() {
  const exporter = new InMemoryLogRecordExporter();
  const loggerProvider = new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter })] });
  // a simple processor still exports asynchronously: flushed before the records are read
  const records = async () => {
    await loggerProvider.forceFlush();
    return exporter.getFinishedLogRecords();
  };
  return { loggerProvider, records };
}

describe('decisions (onDecision): gen_ai.tool.call.decision log records', () => {
  it('an approval asked, denied and granted: three records in the active span, the outcome, tool and call id', async () => {
    const { loggerProvider, records } = inMemoryLogs();
    const listener = telemetry.listener({ loggerProvider });
    const { parent } = await telemetry.withParent(() => {
      listener.onDecision({ toolName: 'send_email', outcome: 'require_approval', toolCallId: 'call_1' });
      listener.onDecision({ toolName: 'send_email', outcome: 'deny', toolCallId: 'call_1', conversationId: 'conv_9' });
      listener.onDecision({ toolName: 'send_email', outcome: 'allow', toolCallId: 'call_2' });
    });
    expect((await records()).map((record) => ({ eventName: record.eventName, attributes: record.attributes }))).toEqual(
      [
        {
          eventName: EVENT_GEN_AI_TOOL_CALL_DECISION,
          attributes: {
            [ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME]: 'require_approval',
            [ATTR_GEN_AI_TOOL_NAME]: 'send_email',
            [ATTR_GEN_AI_TOOL_CALL_ID]: 'call_1',
          },
        },
        {
          eventName: EVENT_GEN_AI_TOOL_CALL_DECISION,
          attributes: {
            [ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME]: 'deny',
            [ATTR_GEN_AI_TOOL_NAME]: 'send_email',
            [ATTR_GEN_AI_TOOL_CALL_ID]: 'call_1',
            [ATTR_GEN_AI_CONVERSATION_ID]: 'conv_9',
          },
        },
        {
          eventName: EVENT_GEN_AI_TOOL_CALL_DECISION,
          attributes: {
            [ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME]: 'allow',
            [ATTR_GEN_AI_TOOL_NAME]: 'send_email',
            [ATTR_GEN_AI_TOOL_CALL_ID]: 'call_2',
          },
        },
      ],
    );
    for (const record of await records()) expect(record.spanContext?.spanId).toBe(parent.spanContext().spanId);
    // no wait measured: no approval duration
    expect(await telemetry.histogramPoints(METRIC_TOOL_CALL_APPROVAL_DURATION)).toEqual([]);
  });

  it('a wait inside the process: one tool_call.approval.duration sample per answer, by tool and outcome', async () => {
    const listener = telemetry.listener({ loggerProvider: inMemoryLogs().loggerProvider });
    listener.onDecision({ toolName: 'rm', outcome: 'require_approval', waitSeconds: 9 }); // a question has no wait
    listener.onDecision({ toolName: 'rm', outcome: 'deny', waitSeconds: 2.5 });
    listener.onDecision({ toolName: 'rm', outcome: 'allow', waitSeconds: 0.75 });
    listener.onDecision({ toolName: 'rm', outcome: 'allow', waitSeconds: -1 }); // not a duration
    const points = await telemetry.histogramPoints(METRIC_TOOL_CALL_APPROVAL_DURATION);
    expect(
      points.map((point) => [
        point.attributes[ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME],
        point.value.count,
        point.value.sum,
      ]),
    ).toEqual([
      ['deny', 1, 2.5],
      ['allow', 1, 0.75],
    ]);
    expect((await telemetry.metric(METRIC_TOOL_CALL_APPROVAL_DURATION))?.descriptor.unit).toBe('s');
  });

  it('nothing when turned off; an unknown outcome is logged, not recorded', async () => {
    const { loggerProvider, records } = inMemoryLogs();
    telemetry.listener({ loggerProvider, recordDecisions: false }).onDecision({ toolName: 't', outcome: 'allow' });
    telemetry
      .listener({ loggerProvider })
      .onDecision({ toolName: 't', outcome: 'maybe' as ToolCallDecision['outcome'] });
    expect(logged.join('\n')).toContain("a decision on 't' with an unknown outcome (maybe)");
    expect(await records()).toEqual([]);
  });

  it('the composite tells every listener; tellDecision keeps a throwing listener from the framework', () => {
    const told: string[] = [];
    const throwing: ToolCallListener = {
      onDecision() {
        throw new Error('audit log down');
      },
    };
    const recording: ToolCallListener = { onDecision: (decision) => told.push(decision.outcome) };
    const composite = ToolCallListeners.composite(recording, throwing, recording);
    expect(() => tellDecision(composite, { toolName: 'x', outcome: 'deny' })).not.toThrow();
    expect(logged.join('\n')).toContain("onDecision threw for 'x'");
    expect(told).toEqual(['deny', 'deny']);
    // a listener without onDecision: nothing to tell
    expect(() => tellDecision({}, { toolName: 'x', outcome: 'allow' })).not.toThrow();
  });
});

/** The Logs API of `@opentelemetry/api` itself (1.10 on, the SDK 3.x line): absent on 1.9. */
const apiLogs = (api as { logs?: { setGlobalLoggerProvider(p: unknown): unknown; disable(): void } }).logs;

describe.runIf(apiLogs !== undefined)(
  'the registered logger provider, @opentelemetry/api 1.10+ (decision-log.ts)',
  () => {
    afterEach(() => apiLogs?.disable());

    it('is found where the API keeps it, with no Logs API package loaded by this one', async () => {
      expect(registeredLoggerProvider()).toBeUndefined();
      const { loggerProvider, records } = inMemoryLogs();
      apiLogs?.setGlobalLoggerProvider(loggerProvider);
      expect(registeredLoggerProvider()).toBe(loggerProvider);
      telemetry.listener().onDecision({ toolName: 'deploy', outcome: 'require_approval' });
      expect((await records()).map((record) => record.attributes[ATTR_GEN_AI_TOOL_NAME])).toEqual(['deploy']);
    });
  },
);

describe('gen_ai.conversation.id', () => {
  it('is on the span when the framework gives one, bounded, and absent otherwise', async () => {
    const tool = ToolCallListeners.wrap(
      functionToolCallback({ name: 'lookup' }, async () => 'ok'),
      telemetry.listener(),
    );
    await tool.call({}, { conversationId: 'thread_42' });
    await tool.call({});
    await tool.call({}, { conversationId: 42 });
    expect(telemetry.spans().map((span) => span.attributes[ATTR_GEN_AI_CONVERSATION_ID])).toEqual([
      'thread_42',
      undefined,
      undefined,
    ]);
  });
});

// the active context is what a record is correlated with: none active, no span context
it('a decision outside any span has no span context', async () => {
  const { loggerProvider, records } = inMemoryLogs();
  context.with(trace.deleteSpan(context.active()), () =>
    telemetry.listener({ loggerProvider }).onDecision({ toolName: 't', outcome: 'allow' }),
  );
  const [record, ...others] = await records();
  expect(others).toEqual([]);
  expect(record?.attributes[ATTR_GEN_AI_TOOL_NAME]).toBe('t');
  expect(record?.spanContext).toBeUndefined();
});

describe('the proposed decision names (semantic-conventions-genai#535, unmerged)', () => {
  it('are written in one place of src, semconv.ts: a rename when the proposal lands is one change', () => {
    const src = fileURLToPath(new URL('../../../src', import.meta.url));
    const writing = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.ts'))
      .filter((path) => {
        const text = readFileSync(join(src, path), 'utf8');
        return [EVENT_GEN_AI_TOOL_CALL_DECISION, ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME].some((name) =>
          text.includes(name),
        );
      });
    expect(writing).toEqual([join('otel', 'semconv.ts')]);
  });
});
