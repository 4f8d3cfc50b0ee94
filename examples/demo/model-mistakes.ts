// The calls the scripted model gets wrong, now and then, as real models do: one run in five gets one
// more call in its first step, which the AI SDK rejects before any tool runs: a tool the app does not
// have, or arguments the tool's schema refuses, in turn (few enough that the model error alert, over 10%
// of a tool's calls, stays quiet). observeToolCalls records each as a failed call
// with `tool_call.error.source` = `model` (the dashboard's "Tool calls the model got wrong" panel).
import type { Plan, PlannedCall } from './agents.js';

/** One run in this many (counted over all agents) has a call the model got wrong. */
export const WRONG_CALL_EVERY = 5;

/** A tool the demo's agents do not have. */
export const UNKNOWN_TOOL = 'search_knowledge_base';

const wrongCalls: readonly PlannedCall[] = [
  { toolName: UNKNOWN_TOOL, input: { query: 'refund policy' } },
  // sql_query takes `sql`: the schema refuses `query`
  { toolName: 'sql_query', input: { query: 'SELECT count(*) FROM orders' } },
];

/** The plan of run `index` (from 0), with a wrong call added to its first step in the second run, then every fifth. */
export function withWrongCall(plan: Plan, index: number): Plan {
  if (index % WRONG_CALL_EVERY !== 1) return plan;
  const wrong = wrongCalls[Math.floor(index / WRONG_CALL_EVERY) % wrongCalls.length] as PlannedCall;
  return [[...(plan[0] ?? []), wrong], ...plan.slice(1)];
}
