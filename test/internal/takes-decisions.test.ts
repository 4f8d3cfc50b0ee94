import { describe, expect, it } from 'vitest';
import { OpenTelemetryToolCallListener, type ToolCallListener, ToolCallListeners } from '../../src/index.js';
import { takesDecisions } from '../../src/internal/takes-decisions.js';

/*
 * Whether an adapter stands in for a framework's approval hook (`needsApproval`) to tell decisions:
 * only for a listener that does something with them.
 */

const told: ToolCallListener = { onDecision: () => {} };
const recording = new OpenTelemetryToolCallListener();
const silent = new OpenTelemetryToolCallListener({ recordDecisions: false });

describe('takesDecisions', () => {
  it('a listener with onDecision takes them; one without does not', () => {
    expect(takesDecisions(told)).toBe(true);
    expect(takesDecisions({})).toBe(false);
    expect(takesDecisions({ afterCall: () => {} })).toBe(false);
  });

  it('an OpenTelemetry listener, unless recordDecisions is false', () => {
    expect(takesDecisions(recording)).toBe(true);
    expect(takesDecisions(silent)).toBe(false);
  });

  it('a composite, when one of its parts does, nested composites included', () => {
    expect(takesDecisions(ToolCallListeners.composite({}, silent))).toBe(false);
    expect(takesDecisions(ToolCallListeners.composite(silent, ToolCallListeners.composite({}, silent)))).toBe(false);
    expect(takesDecisions(ToolCallListeners.composite(silent, told))).toBe(true);
    expect(takesDecisions(ToolCallListeners.composite({}, ToolCallListeners.composite(silent, recording)))).toBe(true);
  });

  it('an object whose composed parts hold itself: bounded, and taken as taking decisions', () => {
    const cyclic: ToolCallListener & Record<symbol, unknown> = { onDecision: () => {} };
    cyclic[Symbol.for('otel-tool-calls.composed-listeners')] = [cyclic];
    expect(takesDecisions(cyclic)).toBe(true);
  });

  it('a Proxy listener whose traps throw on the keys it is asked: it has onDecision, so it takes them', () => {
    const hostile = new Proxy(told, {
      get(target, key) {
        if (typeof key === 'symbol') throw new Error('no symbols here');
        return Reflect.get(target, key);
      },
    });
    expect(takesDecisions(hostile)).toBe(true);
  });
});
