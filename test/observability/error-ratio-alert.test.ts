/**
 * The ToolCallErrorRatioHigh alert, loaded from the same rules file as the stack, on a real Prometheus
 * scraping a real instrumented app: the tool with a burst of failures (charge_card, half its calls fail)
 * goes pending (then firing after `for: 5m`), while the healthy tool next to it (lookup_order, 4% failures
 * on enough calls for the rule to judge it) stays inactive. On each Prometheus there is (service-binaries.ts):
 * the Prometheus 3 that scripts/services.sh builds, and Debian's 2.42 while it is cheap to keep.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PrometheusAlert,
  type PrometheusAlertingRule,
  type RunningPrometheus,
  skipOrFail,
  startPrometheus,
  waitFor,
  waitForJudgeableHealthyTool,
} from '../helpers/prometheus.js';
import { binaryRows } from '../helpers/service-binaries.js';
import { type InstrumentedApp, startInstrumentedApp } from './instrumented-app.js';

const rulesFile = fileURLToPath(new URL('../../observability/prometheus/rules/tool-calls.rules.yml', import.meta.url));
const prometheusBinaries = binaryRows('prometheus', { binary: 'prometheus', package: 'prometheus' });
const JOB = 'tool-calls-demo';

describe.each(prometheusBinaries)('ToolCallErrorRatioHigh on a real Prometheus: $label', ({ gate: prometheusGate }) => {
  let prometheus: RunningPrometheus | undefined;
  let app: InstrumentedApp | undefined;

  beforeAll(async () => {
    if (!prometheusGate.path) return;
    app = await startInstrumentedApp();
    prometheus = await startPrometheus(prometheusGate.path, {
      targets: [app.target],
      ruleFiles: [rulesFile],
      jobName: JOB,
    });
  }, 90_000);

  afterAll(async () => {
    await prometheus?.stop();
    await app?.stop();
  });

  const errorRatioRule = async (): Promise<PrometheusAlertingRule> => {
    const rules = await prometheus!.alertingRules();
    const rule = rules.find((r) => r.name === 'ToolCallErrorRatioHigh');
    if (!rule) throw new Error(`rule not loaded; loaded: ${rules.map((r) => r.name).join(', ')}`);
    if (rule.health === 'err') throw new Error(`rule evaluation failed: ${rule.lastError}`);
    return rule;
  };
  const errorRatioAlerts = async (): Promise<readonly PrometheusAlert[]> => (await errorRatioRule()).alerts ?? [];

  it('goes pending or firing for the tool with a burst of failures', async (ctx) => {
    if (!prometheus) return skipOrFail(ctx, prometheusGate);
    const alert = await waitFor(
      'ToolCallErrorRatioHigh for charge_card',
      async () => (await errorRatioAlerts()).find((a) => a.labels.gen_ai_tool_name === 'charge_card'),
      { timeoutMs: 90_000, intervalMs: 500 },
    );
    expect(['pending', 'firing']).toContain(alert.state);
    expect(alert.labels).toMatchObject({ alertname: 'ToolCallErrorRatioHigh', job: JOB, severity: 'page' });
    expect(alert.annotations.summary).toMatch(/^Tool charge_card fails \d+(\.\d+)?% of its calls \(tool-calls-demo\)$/);
    expect(alert.annotations.runbook).toContain('gen_ai.tool.name=charge_card');
  });

  it('stays inactive for a healthy tool that the rule has enough data to judge', async (ctx) => {
    if (!prometheus) return skipOrFail(ctx, prometheusGate);
    // wait until lookup_order has a non-zero error ratio under the threshold on at least 20 calls: the rule then
    // has all it needs, and its silence is a verdict (the first seconds of a series are too short to judge)
    const healthy = await waitForJudgeableHealthyTool(prometheus!, 'lookup_order');
    // an evaluation that started after that data was there is the rule's verdict on it
    const dataSeenAt = Date.now();
    const rule = await waitFor('an evaluation of the rule on that data', async () => {
      const candidate = await errorRatioRule();
      return Date.parse(candidate.lastEvaluation ?? '') > dataSeenAt + 1_000 ? candidate : undefined;
    });
    const alerting = (rule.alerts ?? []).map((a) => a.labels.gen_ai_tool_name);
    const verdict = `alerts for ${JSON.stringify(alerting)} with lookup_order at ${JSON.stringify(healthy)}`;
    // the same evaluation did alert on the failing tool: the rule was live, not silent for every tool
    expect(alerting, verdict).toContain('charge_card');
    expect(alerting, verdict).not.toContain('lookup_order');
    expect(alerting, verdict).not.toContain('web_search');
    const firingSeries = await prometheus!.query(
      'ALERTS{alertname="ToolCallErrorRatioHigh",gen_ai_tool_name!="charge_card"}',
    );
    expect(firingSeries).toEqual([]);
  });
});
