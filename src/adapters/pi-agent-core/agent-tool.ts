/*
 * pi's tool (`AgentTool` of @mariozechner/pi-agent-core), by shape, read defensively (a getter that
 * throws makes the entry one the adapter leaves alone): `{ name, label, description, parameters,
 * execute(toolCallId, params, signal?, onUpdate?), prepareArguments?, executionMode? }`. The loop
 * finds a call's tool by `name`, validates the model's arguments against `parameters`, then awaits
 * `tool.execute(...)` as a method of the tool.
 */

export type ToolFunction = (this: unknown, ...args: unknown[]) => unknown;

/** What the adapter reads of one AgentTool. */
export interface AgentToolShape {
  readonly name: string;
  readonly description: string | undefined;
  readonly parameters: unknown;
  readonly execute: ToolFunction;
}

/** `tool`'s shape when the loop would run it, else `undefined`. */
export function agentToolShapeOf(tool: unknown): AgentToolShape | undefined {
  if (tool === null || typeof tool !== 'object') return undefined;
  try {
    const { name, description, parameters, execute } = tool as Record<string, unknown>;
    if (typeof name !== 'string' || typeof execute !== 'function') return undefined;
    return {
      name,
      description: typeof description === 'string' ? description : undefined,
      parameters,
      execute: execute as ToolFunction,
    };
  } catch {
    return undefined;
  }
}

/** Whether `tools` (a run's tool list, as the loop searches it) has a tool named `name`. */
export function hasToolNamed(tools: unknown, name: string): boolean {
  if (!Array.isArray(tools)) return false;
  return tools.some((tool) => {
    try {
      return (tool as { name?: unknown } | null)?.name === name;
    } catch {
      return false;
    }
  });
}
