import { type ErrorPolicy, functionToolCallback, ToolCallListeners } from 'otel-tool-calls';
import { ATTR_TOOL_CALL_ERROR_OUTCOME } from 'otel-tool-calls/semconv';
import { describe, expect, it } from 'vitest';
import { useTestTelemetry } from '../helpers/otel-sdk.js';

const telemetry = useTestTelemetry();

const failure = new Error('down');
const tool = (name: string) =>
  functionToolCallback({ name }, () => {
    throw failure;
  });

describe('toolErrorPolicies is read once, at construction', () => {
  it('a throwing getter added to the object later is never run: onError does not throw', () => {
    const policies: Record<string, ErrorPolicy> = { search: 'report' };
    const listener = telemetry.listener({ toolErrorPolicies: policies });
    Object.defineProperty(policies, 'fetch', {
      enumerable: true,
      get() {
        throw new Error('policy getter bug');
      },
    });
    expect(() => ToolCallListeners.wrap(tool('fetch'), listener).call(undefined)).toThrow(failure);
    expect(telemetry.span('execute_tool fetch').attributes[ATTR_TOOL_CALL_ERROR_OUTCOME]).toBe('rethrown');
  });

  it('later changes are not seen: a policy replaced by an invalid value, or added, is ignored', () => {
    const policies: Record<string, unknown> = { search: 'report' };
    const listener = telemetry.listener({ toolErrorPolicies: policies as Record<string, ErrorPolicy> });
    policies.search = 'sometimes';
    policies.email = 'report';
    expect(ToolCallListeners.wrap(tool('search'), listener).call(undefined)).toBe("Tool 'search' failed: down");
    expect(() => ToolCallListeners.wrap(tool('email'), listener).call(undefined)).toThrow(failure);
  });

  it("a policy named after Object.prototype members ('constructor', '__proto__') is the tool's own", () => {
    const policies = JSON.parse('{"__proto__": "report", "constructor": "report"}') as Record<string, ErrorPolicy>;
    const listener = telemetry.listener({ toolErrorPolicies: policies });
    expect(ToolCallListeners.wrap(tool('__proto__'), listener).call(undefined)).toBe("Tool '__proto__' failed: down");
    expect(ToolCallListeners.wrap(tool('constructor'), listener).call(undefined)).toBe(
      "Tool 'constructor' failed: down",
    );
    expect(() => ToolCallListeners.wrap(tool('toString'), listener).call(undefined)).toThrow(failure);
  });
});
