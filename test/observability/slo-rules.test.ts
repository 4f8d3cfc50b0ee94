/**
 * The SLO rules are configured in one place: observability/prometheus/slos.yml (objectives, the latency
 * threshold, the burn-rate windows and rates). rules/tool-calls-slo.rules.yml is what scripts/slo-rules.ts
 * generates from it, so the checked-in file must be exactly that; and a change to slos.yml shows in the rules.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readSloConfig, sloRules, sloRulesFile } from '../../scripts/slo-rules.js';

interface Rule {
  record?: string;
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
}
const rulesOf = (text: string) => (parse(text) as { groups: Array<{ rules: Rule[] }> }).groups.flatMap((g) => g.rules);

describe('the SLO rules, generated from slos.yml', () => {
  it('are checked in as scripts/slo-rules.ts generates them (run npx tsx scripts/slo-rules.ts after editing slos.yml)', () => {
    expect(readFileSync(sloRulesFile, 'utf8')).toBe(sloRules(readSloConfig()));
  });

  it('have one page or ticket alert per SLI and row of burn_rate_alerts, on both of its windows', () => {
    const config = readSloConfig();
    const alerts = rulesOf(sloRules(config)).filter((rule) => rule.alert);
    expect(alerts).toHaveLength(2 * config.burn_rate_alerts.length);
    for (const row of config.burn_rate_alerts) {
      for (const slo of ['availability', 'latency']) {
        const alert = alerts.find((a) => a.labels?.slo === slo && a.labels.long_window === row.long_window);
        expect(alert?.labels).toMatchObject({ severity: row.severity, short_window: row.short_window });
        expect(alert?.expr).toContain(`job_tool:tool_call_slo_${slo}:burn_rate${row.long_window} > ${row.burn_rate}`);
        expect(alert?.expr).toContain(`job_tool:tool_call_slo_${slo}:burn_rate${row.short_window} > ${row.burn_rate}`);
        expect(alert?.for).toBe(config.for[row.severity]);
      }
    }
  });

  it('follow a change of objective, threshold and windows in slos.yml', () => {
    const config = readSloConfig();
    const changed = sloRules({
      ...config,
      slos: { availability: { objective: 0.999 }, latency: { objective: 0.95, threshold_seconds: 1.28 } },
      burn_rate_alerts: [{ severity: 'page', long_window: '2h', short_window: '10m', burn_rate: 10 }],
    });
    const rules = rulesOf(changed);
    const burn2h = rules.find((rule) => rule.record === 'job_tool:tool_call_slo_availability:burn_rate2h');
    expect(burn2h?.expr).toMatch(/\/ 0\.001$/m);
    const latency = rules.find((rule) => rule.record === 'job_tool:tool_call_slo_latency:burn_rate10m');
    expect(latency?.expr).toContain('le="1.28"');
    expect(latency?.expr).toMatch(/\/ 0\.05$/m);
    expect(rules.filter((rule) => rule.alert).map((rule) => rule.alert)).toEqual([
      'ToolCallErrorBudgetFastBurn',
      'ToolCallLatencyBudgetFastBurn',
    ]);
    expect(rules.some((rule) => rule.record?.endsWith('burn_rate1h'))).toBe(false);
  });
});
