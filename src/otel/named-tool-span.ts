import type { Span } from '@opentelemetry/api';

/**
 * The tool spans of other instrumentations that are named for their tool when they start but get
 * their GenAI attributes (`gen_ai.operation.name`, `gen_ai.tool.name`) only when the tool returns:
 * a call observed inside one can tell it stands for the same call by its name alone.
 * - `execute_tool {tool}`, the conventions' name, in any scope: Google ADK (`gcp.vertex.agent`)
 *   names its span so and attributes it after a success only (a failed call's span has none);
 * - `tool: '{tool}'` from `@mastra/otel-bridge`: Mastra's own span name while the tool runs; the
 *   bridge renames it `execute_tool {tool}` and sets its attributes when Mastra's span ends.
 * A name says which tool, never which call: the call ids, when both are known, still must agree
 * (outer-tool-call.ts).
 */
const KNOWN_NAMES: readonly { readonly scope?: string; readonly name: (toolName: string) => string }[] = [
  { name: (toolName) => `execute_tool ${toolName}` },
  { scope: '@mastra/otel-bridge', name: (toolName) => `tool: '${toolName}'` },
];

/** The parts of the SDK's span read here (its class keeps them as public fields, 1.x and 2.x). */
interface ReadableParts {
  readonly name?: unknown;
  readonly instrumentationScope?: { readonly name?: unknown };
  readonly instrumentationLibrary?: { readonly name?: unknown };
}

/** Whether `span`'s name (and scope, where the shape has one) is a known tool-span name for `toolName`. */
export function namedForTool(span: Span, toolName: string): boolean {
  const { name, instrumentationScope, instrumentationLibrary } = span as ReadableParts;
  if (typeof name !== 'string') return false;
  const scope = (instrumentationScope ?? instrumentationLibrary)?.name;
  return KNOWN_NAMES.some(
    (known) => (known.scope === undefined || known.scope === scope) && known.name(toolName) === name,
  );
}
