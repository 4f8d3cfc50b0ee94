import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SpanStatusCode } from '@opentelemetry/api';
import { functionToolCallback, ToolCallListeners } from 'otel-tool-calls';
import { METRIC_TOOL_CALL_ERRORS } from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../helpers/otel-sdk.js';
import { recordingListener } from '../helpers/recording-listener.js';

const telemetry = useTestTelemetry();

const ASYNC_GENERATOR_PROTOTYPE = Object.getPrototypeOf(Object.getPrototypeOf((async function* () {})()));

/** A hostile source: an async generator by its prototype, with its own (misbehaving) methods. */
function fakeGenerator(methods: Record<string, (...args: unknown[]) => unknown>): AsyncGenerator {
  return Object.assign(Object.create(ASYNC_GENERATOR_PROTOTYPE), methods) as AsyncGenerator;
}

const streamTool = (source: () => AsyncGenerator) => functionToolCallback({ name: 'stream' }, source);

describe('a malformed stream step still ends the invocation', () => {
  const throwingDone = Object.defineProperty({}, 'done', {
    get() {
      throw new Error('done getter bug');
    },
  });
  it.each([
    ['null', null],
    ['a number', 42],
    ['an object whose done getter throws', throwingDone],
  ])('a step that is %s: the consumer gets an error, the span ends and the failure is counted', async (_name, step) => {
    const source = fakeGenerator({ next: async () => step });
    const stream = ToolCallListeners.wrap(
      streamTool(() => source),
      telemetry.listener(),
    ).call(undefined);
    await expect(stream.next()).rejects.toThrow(/not an object|done getter bug/);
    const span = telemetry.span('execute_tool stream');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    const counted = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(counted.map((point) => point.value)).toEqual([1]);
  });
});

describe('next(value) is forwarded', () => {
  it('a two-way generator gets the value sent with next(value)', async () => {
    const tool = streamTool(async function* () {
      const sent = (yield 'ready') as number;
      yield sent * 2;
    });
    const stream = ToolCallListeners.wrap(tool, recordingListener()).call(undefined);
    expect(await stream.next()).toEqual({ done: false, value: 'ready' });
    expect(await stream.next(21)).toEqual({ done: false, value: 42 });
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });
});

describe('stream interleavings: operations run one at a time, in call order', () => {
  it('concurrent next() calls end the invocation once: afterCall, then afterCompletion, nothing after', async () => {
    const listener = recordingListener();
    const tool = streamTool(async function* () {
      yield 'only';
    });
    const stream = ToolCallListeners.wrap(tool, listener).call(undefined);
    const steps = await Promise.all([stream.next(), stream.next(), stream.next()]);
    expect(steps).toEqual([
      { done: false, value: 'only' },
      { done: true, value: undefined },
      { done: true, value: undefined },
    ]);
    expect(listener.kinds()).toEqual(['beforeCall', 'afterCall', 'afterCompletion']);
  });

  it('return() while a next() is pending that then rejects: onError before afterCompletion, and the span says so', async () => {
    let rejectPending: (error: unknown) => void = () => {};
    const failure = new Error('late failure');
    const source = fakeGenerator({
      next: () => new Promise((_resolve, reject) => (rejectPending = reject)),
      return: async (value: unknown) => ({ done: true, value }),
    });
    const listener = recordingListener(() => null);
    const otel = telemetry.listener({ errorPolicy: 'report' });
    const stream = ToolCallListeners.wrap(
      streamTool(() => source),
      ToolCallListeners.composite(otel, listener),
    ).call(undefined);
    const pending = stream.next();
    const closing = stream.return(undefined);
    rejectPending(failure);
    expect(await pending).toEqual({ done: false, value: "Tool 'stream' failed: late failure" });
    expect(await closing).toEqual({ done: true, value: undefined });
    expect(listener.kinds()).toEqual(['beforeCall', 'onError', 'afterCompletion']);
    const span = telemetry.span('execute_tool stream');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    const counted = await telemetry.counterPoints(METRIC_TOOL_CALL_ERRORS);
    expect(counted.map((point) => point.value)).toEqual([1]);
  });
});

describe('a stream nobody iterates', () => {
  it('ends its invocation when it is garbage collected: no span stays open forever', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const listener = recordingListener();
    const tool = streamTool(async function* () {
      yield 'never read';
    });
    (() => {
      ToolCallListeners.wrap(tool, listener).call(undefined);
    })();
    for (let attempt = 0; attempt < 20 && listener.kinds().length < 2; attempt++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(listener.kinds()).toEqual(['beforeCall', 'afterCompletion']);
  });
});
