/**
 * A call the framework rejected before the tool ran (the model called it wrong) is a histogram sample and
 * a counter increment like any failed call, both with tool_call_error_source="model": these checks keep
 * every latency query leaving the rejected calls out, and every query of the error counter on one side,
 * the tools' own failures or the model's.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const read = (path: string) =>
  readFileSync(fileURLToPath(new URL(`../../observability/${path}`, import.meta.url)), 'utf8');

const dashboard = JSON.parse(read('grafana/dashboards/tool-calls.json')) as {
  panels: Array<{ title: string; targets?: Array<{ refId: string; expr: string }> }>;
};
const ruleGroups = ['prometheus/rules/tool-calls.rules.yml', 'prometheus/rules/tool-calls-slo.rules.yml'].flatMap(
  (file) =>
    (parse(read(file)) as { groups: Array<{ rules: Array<{ record?: string; alert?: string; expr: string }> }> })
      .groups,
);

const queries = [
  ...dashboard.panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({ where: `panel "${panel.title}" ${target.refId}`, expr: target.expr })),
  ),
  ...ruleGroups.flatMap((group) =>
    group.rules.map((rule) => ({ where: `rule ${rule.record ?? rule.alert}`, expr: rule.expr })),
  ),
];

/**
 * The label matchers of every selector of `metric` in `expr`, e.g. `tool_call_error_source!="model"`: a
 * selector by its name (`metric{...}`) or by a `__name__` regex that spells it both ways
 * (`{__name__=~"gen_ai_execute_tool_duration(?:_seconds)?_bucket", ...}`).
 */
function selectorsOf(metric: string, expr: string): string[] {
  const [base, suffix] = [
    metric.replace(/_(bucket|count|sum|total)$/, ''),
    metric.match(/_(bucket|count|sum|total)$/)?.[0],
  ];
  const byName = [...expr.matchAll(new RegExp(`\\b${metric}\\{([^}]*)\\}`, 'g'))].map((match) => match[1]!);
  const byRegex = [...expr.matchAll(/\{__name__=~"([^"]+)"([^}]*)\}/g)]
    .filter((match) => match[1]!.startsWith(base) && match[1]!.endsWith(suffix ?? ''))
    .map((match) => match[2]!.replace(/^,\s*/, ''));
  return [...byName, ...byRegex].map((matchers) => matchers.replace(/\s+/g, ' '));
}

describe('the calls the model got wrong, in the rules and the dashboard', () => {
  it('leaves them out of every latency query (the ~0 s samples of calls no tool ran)', () => {
    const latency = queries.filter(({ expr }) => selectorsOf('gen_ai_execute_tool_duration_bucket', expr).length > 0);
    expect(latency.length).toBeGreaterThanOrEqual(6 + 8); // 8 latency burn-rate windows of the SLO rules
    for (const { where, expr } of latency) {
      for (const matchers of selectorsOf('gen_ai_execute_tool_duration_bucket', expr)) {
        expect(matchers, where).toContain('tool_call_error_source!="model"');
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
