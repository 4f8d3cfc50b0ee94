/**
 * The ToolCallErrorRatioHigh and ToolCallModelErrorRatioHigh alerts, loaded from the same rules file as the
 * stack, on a real Prometheus scraping a real instrumented app: the tool with a burst of failures
 * (charge_card, half its calls fail) goes pending (then firing after `for: 5m`), while the healthy tool next
 * to it (lookup_order, 4% failures on enough calls for the rule to judge it) stays inactive, and so does the
 * tool that never fails but that the model gets wrong a fifth of the time (web_search): that one, and the
 * tool names the model makes up (_unknown), get the model error ticket instead, which charge_card (about 5%
 * of its calls wrong) does not. On each Prometheus there is (service-binaries.ts): the Prometheus 3 that
 * scripts/services.sh builds, and Debian's 2.42 while it is cheap to keep.
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

describe.each(prometheusBinaries)('error alerts on a real Prometheus: $label', ({ gate: prometheusGate }) => {
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

  const alertingRule = async (name: string): Promise<PrometheusAlertingRule> => {
    const rules = await prometheus!.alertingRules();
    const rule = rules.find((r) => r.name === name);
    if (!rule) throw new Error(`rule not loaded; loaded: ${rules.map((r) => r.name).join(', ')}`);
    if (rule.health === 'err') throw new Error(`rule evaluation failed: ${rule.lastError}`);
    return rule;
  };
  const errorRatioRule = () => alertingRule('ToolCallErrorRatioHigh');
  const errorRatioAlerts = async (): Promise<readonly PrometheusAlert[]> => (await errorRatioRule()).alerts ?? [];
  const modelErrorRule = () => alertingRule('ToolCallModelErrorRatioHigh');

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
    // web_search never fails when it runs: the calls the model got wrong (a fifth of them) do not page
    expect(alerting, verdict).not.toContain('web_search');
    expect(alerting, verdict).not.toContain('_unknown');
    const firingSeries = await prometheus!.query(
      'ALERTS{alertname="ToolCallErrorRatioHigh",gen_ai_tool_name!="charge_card"}',
    );
    expect(firingSeries).toEqual([]);
  });

  it('raises the model error ticket for a tool the model often calls wrong, and for the names it makes up', async (ctx) => {
    if (!prometheus) return skipOrFail(ctx, prometheusGate);
    const alerts = await waitFor(
      'ToolCallModelErrorRatioHigh for web_search and _unknown',
      async () => {
        const found = (await modelErrorRule()).alerts ?? [];
        const tools = found.map((a) => a.labels.gen_ai_tool_name);
        return tools.includes('web_search') && tools.includes('_unknown') ? found : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 500 },
    );
    for (const alert of alerts) {
      expect(['pending', 'firing']).toContain(alert.state);
      expect(alert.labels).toMatchObject({ alertname: 'ToolCallModelErrorRatioHigh', job: JOB, severity: 'ticket' });
    }
    const summaries = Object.fromEntries(alerts.map((a) => [a.labels.gen_ai_tool_name, a.annotations.summary]));
    expect(summaries.web_search).toMatch(
      /^The model gets \d+(\.\d+)?% of its calls to tool web_search wrong \(tool-calls-demo\)$/,
    );
    expect(summaries._unknown).toMatch(
      /^\d+(\.\d+)?% of the model's tool calls name a tool that does not exist \(tool-calls-demo\)$/,
    );
  });

  it('raises no model error ticket for a tool the model rarely calls wrong, once the rule can judge it', async (ctx) => {
    if (!prometheus) return skipOrFail(ctx, prometheusGate);
    // charge_card: about 1 call in 20 rejected, on at least 20 calls
    const judged = await waitFor(
      'charge_card with a model error ratio in (0, 0.1) on at least 20 calls',
      async () => {
        const [volume] = await prometheus!.query(
          'job_tool:gen_ai_execute_tool_calls:increase5m{gen_ai_tool_name="charge_card"}',
        );
        const [ratio] = await prometheus!.query(
          'job_tool:tool_call_model_errors:ratio_rate5m{gen_ai_tool_name="charge_card"}',
        );
        const calls = Number(volume?.value?.[1] ?? Number.NaN);
        const modelErrorRatio = Number(ratio?.value?.[1] ?? Number.NaN);
        if (!(calls >= 20 && modelErrorRatio > 0 && modelErrorRatio < 0.1)) {
          throw new Error(`calls in 5m: ${calls}, model error ratio: ${modelErrorRatio}`);
        }
        return { calls, modelErrorRatio };
      },
      { timeoutMs: 90_000, intervalMs: 500 },
    );
    const dataSeenAt = Date.now();
    const rule = await waitFor('an evaluation of the rule on that data', async () => {
      const candidate = await modelErrorRule();
      return Date.parse(candidate.lastEvaluation ?? '') > dataSeenAt + 1_000 ? candidate : undefined;
    });
    const alerting = (rule.alerts ?? []).map((a) => a.labels.gen_ai_tool_name);
    const verdict = `alerts for ${JSON.stringify(alerting)} with charge_card at ${JSON.stringify(judged)}`;
    // the same evaluation did ticket web_search: the rule was live, not silent for every tool
    expect(alerting, verdict).toContain('web_search');
    expect(alerting, verdict).not.toContain('charge_card');
    expect(alerting, verdict).not.toContain('lookup_order');
  });
});
