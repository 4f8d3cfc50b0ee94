import type { Span } from '@opentelemetry/api';
import type { ForeignToolSpan } from '../tool-call-listener.js';
import { executeToolSpanName } from './tool-span.js';

/*
 * The tool spans of other instrumentations that are named for their tool when they start but get
 * their GenAI attributes (`gen_ai.operation.name`, `gen_ai.tool.name`) only when the tool returns:
 * a call observed inside one can tell it stands for the same call by its name alone. Two names:
 * - `execute_tool {tool}`, the conventions' name, in any scope;
 * - the one the call's adapter knows its framework's tracer gives it (`ToolCallInfo.foreignSpan`).
 * A name says which tool, never which call: the call ids, when both are known, still must agree
 * (outer-tool-call.ts).
 */

/** The parts of the SDK's span read here (its class keeps them as public fields, 1.x and 2.x). */
interface ReadableParts {
  readonly name?: unknown;
  readonly instrumentationScope?: { readonly name?: unknown };
  readonly instrumentationLibrary?: { readonly name?: unknown };
}

/** Whether `span`'s name (and scope, where the shape has one) is a tool-span name for `toolName`. */
export function namedForTool(span: Span, toolName: string, foreign: ForeignToolSpan | undefined): boolean {
  const { name, instrumentationScope, instrumentationLibrary } = span as ReadableParts;
  if (typeof name !== 'string') return false;
  if (name === executeToolSpanName(toolName)) return true;
  if (foreign === undefined || foreign.name !== name) return false;
  return foreign.scope === undefined || foreign.scope === (instrumentationScope ?? instrumentationLibrary)?.name;
}
