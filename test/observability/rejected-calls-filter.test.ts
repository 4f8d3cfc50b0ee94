/**
 * A call the framework rejected before the tool ran (the model called it wrong) is a histogram sample like
 * any failed call, with the semantic convention's attributes only: the rules and the dashboard tell it apart
 * by its error_type, one of the frameworks' rejection errors (its counter increment has
 * tool_call_error_source="model" too). That list is written out in each query that needs it: these checks
 * keep every copy the same, every latency query leaving the rejected calls out, and every query of the
 * error counter on one side, the tools' own failures or the model's.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/** The `error.type` of a rejected call, per framework (the metric contract of issue 24). */
const REJECTION_ERROR_TYPES = [
  'AI_InvalidToolInputError', // AI SDK: arguments failing the input schema, or not JSON
  'AI_NoSuchToolError', // AI SDK: a tool name the app does not have
  'ToolInputParsingException', // LangChain
  'InvalidToolInputError', // OpenAI Agents SDK
];

const read = (path: string) =>
  readFileSync(fileURLToPath(new URL(`../../observability/${path}`, import.meta.url)), 'utf8');

const dashboard = JSON.parse(read('grafana/dashboards/tool-calls.json')) as {
  panels: Array<{ title: string; targets: Array<{ refId: string; expr: string }> }>;
};
const rules = parse(read('prometheus/rules/tool-calls.rules.yml')) as {
  groups: Array<{ rules: Array<{ record?: string; alert?: string; expr: string }> }>;
};

const queries = [
  ...dashboard.panels.flatMap((panel) =>
    panel.targets.map((target) => ({ where: `panel "${panel.title}" ${target.refId}`, expr: target.expr })),
  ),
  ...rules.groups.flatMap((group) =>
    group.rules.map((rule) => ({ where: `rule ${rule.record ?? rule.alert}`, expr: rule.expr })),
  ),
];

/** The label matchers of every selector of `metric` in `expr`, e.g. `error_type!~"..."`. */
function selectorsOf(metric: string, expr: string): string[] {
  return [...expr.matchAll(new RegExp(`\\b${metric}\\{([^}]*)\\}`, 'g'))].map((match) =>
    match[1]!.replace(/\s+/g, ' '),
  );
}

describe('the calls the model got wrong, in the rules and the dashboard', () => {
  it('tells them apart by one list of error types, the frameworks rejection errors', () => {
    const lists = queries.flatMap(({ where, expr }) =>
      [...expr.matchAll(/error_type\s*[!=]~\s*"([^"]*)"/g)].map((match) => ({ where, list: match[1] })),
    );
    expect(lists.length).toBeGreaterThanOrEqual(8);
    for (const { where, list } of lists) expect(list, where).toBe(REJECTION_ERROR_TYPES.join('|'));
  });

  it('leaves them out of every latency query (the ~0 s samples of calls no tool ran)', () => {
    const latency = queries.filter(({ expr }) => expr.includes('gen_ai_execute_tool_duration_bucket'));
    expect(latency.length).toBeGreaterThanOrEqual(6);
    for (const { where, expr } of latency) {
      for (const matchers of selectorsOf('gen_ai_execute_tool_duration_bucket', expr)) {
        expect(matchers, where).toContain(`error_type!~"${REJECTION_ERROR_TYPES.join('|')}"`);
      }
    }
  });

  it('counts every error query on one side: the tools own failures or the calls the model got wrong', () => {
    const errorQueries = queries.filter(({ expr }) => expr.includes('tool_call_errors_total'));
    expect(errorQueries.length).toBeGreaterThanOrEqual(7);
    for (const { where, expr } of errorQueries) {
      for (const matchers of selectorsOf('tool_call_errors_total', expr)) {
        expect(matchers, where).toMatch(/tool_call_error_source(!=|=)"model"/);
      }
    }
  });
});
