import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipOrFail, waitFor } from '../helpers/prometheus.js';
import { serviceGate } from '../helpers/service-binaries.js';
import { sloRulesWithShortWaits } from '../helpers/slo-rules-copy.js';
import { type AlertPipeline, startAlertPipeline } from './alert-pipeline.js';

const prometheusGate = serviceGate('prometheus', { binary: 'prometheus', package: 'prometheus' });
const alertmanagerGate = serviceGate('alertmanager', {
  binary: 'prometheus-alertmanager',
  package: 'prometheus-alertmanager',
});
const JOB = 'tool-calls-demo';

describe('SLO burn-rate alerts from the app to the pager and ticket webhooks', () => {
  let pipeline: AlertPipeline | undefined;

  beforeAll(async () => {
    if (!prometheusGate.path || !alertmanagerGate.path) return;
    const binaries = { prometheus: prometheusGate.path, alertmanager: alertmanagerGate.path };
    pipeline = await startAlertPipeline(binaries, {
      rules: sloRulesWithShortWaits(),
      job: JOB,
      serviceName: 'tool-calls-slo-fixture',
    });
  }, 90_000);

  afterAll(async () => {
    await pipeline?.stop();
  });

  const skipUnlessRunning = (ctx: { skip(note?: string): never }) => {
    if (!prometheusGate.path) return skipOrFail(ctx, prometheusGate);
    if (!alertmanagerGate.path) return skipOrFail(ctx, alertmanagerGate);
  };

  const notified = (description: string, labels: Record<string, string>) => pipeline!.notified(description, labels);

  it('pages on the fast burn of the failing tool, through the page receiver', async (ctx) => {
    skipUnlessRunning(ctx);
    const { notification, alert } = await notified('ToolCallErrorBudgetFastBurn for charge_card (1h/5m)', {
      alertname: 'ToolCallErrorBudgetFastBurn',
      gen_ai_tool_name: 'charge_card',
      long_window: '1h',
    });
    expect(notification.receiver).toBe('page');
    expect(notification.path).toBe('/page');
    expect(alert.labels).toMatchObject({ job: JOB, severity: 'page', slo: 'availability', short_window: '5m' });
    expect(alert.annotations.summary).toBe(
      `Tool charge_card burns its availability error budget 14.4x as fast as the SLO allows (${JOB})`,
    );
    // half the calls it ran failed: a burn of about 50 on every window
    const [burn] = await pipeline!.prometheus.query(
      `job_tool:tool_call_slo_availability:burn_rate1h{gen_ai_tool_name="charge_card"}`,
    );
    expect(Number(burn?.value?.[1])).toBeGreaterThan(30);
    expect(Number(burn?.value?.[1])).toBeLessThan(70);
  }, 120_000);

  it('tickets the slow burn of a tool failing 4% of its calls, never pages it', async (ctx) => {
    skipUnlessRunning(ctx);
    const { notification, alert } = await notified('ToolCallErrorBudgetSlowBurn for lookup_order', {
      alertname: 'ToolCallErrorBudgetSlowBurn',
      gen_ai_tool_name: 'lookup_order',
    });
    expect(notification.receiver).toBe('ticket');
    expect(alert.labels).toMatchObject({ job: JOB, severity: 'ticket', slo: 'availability' });
    const [burn] = await pipeline!.prometheus.query(
      `job_tool:tool_call_slo_availability:burn_rate1d{gen_ai_tool_name="lookup_order"}`,
    );
    expect(Number(burn?.value?.[1])).toBeGreaterThan(3); // 1 in 25 calls: 4
    expect(Number(burn?.value?.[1])).toBeLessThan(6);
    const pagedTools = pipeline!.webhook.notifications
      .filter((n) => n.receiver === 'page')
      .flatMap((n) => n.alerts.map((a) => a.labels.gen_ai_tool_name));
    expect(new Set(pagedTools)).toEqual(new Set(['charge_card']));
  }, 120_000);

  it("holds back the failing tool's slow-burn ticket while its fast burn pages (the inhibition rule)", async (ctx) => {
    skipUnlessRunning(ctx);
    await notified('the charge_card page', {
      alertname: 'ToolCallErrorBudgetFastBurn',
      gen_ai_tool_name: 'charge_card',
    });
    const held = await waitFor('the slow burn of charge_card in Alertmanager', async () => {
      const alerts = await pipeline!.alertmanager.alerts();
      const slow = alerts.filter(
        (a) => a.labels.alertname === 'ToolCallErrorBudgetSlowBurn' && a.labels.gen_ai_tool_name === 'charge_card',
      );
      return slow.length > 0 ? { alerts, slow } : undefined;
    });
    const sources = held.alerts
      .filter(
        (a) => a.labels.alertname === 'ToolCallErrorBudgetFastBurn' && a.labels.gen_ai_tool_name === 'charge_card',
      )
      .map((a) => a.fingerprint);
    for (const alert of held.slow) {
      expect(alert.status.state).toBe('suppressed');
      expect(sources).toEqual(expect.arrayContaining([...alert.status.inhibitedBy]));
    }
    const ticketed = pipeline!.webhook.notifications.flatMap((n) =>
      n.alerts.filter(
        (a) => a.labels.alertname === 'ToolCallErrorBudgetSlowBurn' && a.labels.gen_ai_tool_name === 'charge_card',
      ),
    );
    expect(ticketed).toEqual([]);
  }, 120_000);

  it('burns no budget for the calls the model got wrong: web_search raises nothing', async (ctx) => {
    skipUnlessRunning(ctx);
    // once lookup_order's ticket is out, web_search has had as long, with a fifth of its calls rejected
    await notified('the lookup_order ticket', {
      alertname: 'ToolCallErrorBudgetSlowBurn',
      gen_ai_tool_name: 'lookup_order',
    });
    const [burn] = await pipeline!.prometheus.query(
      `job_tool:tool_call_slo_availability:burn_rate1h{gen_ai_tool_name="web_search"}`,
    );
    expect(Number(burn?.value?.[1])).toBe(0);
    const held = await pipeline!.alertmanager.alerts();
    expect(
      held.filter((a) => a.labels.gen_ai_tool_name === 'web_search' || a.labels.gen_ai_tool_name === '_unknown'),
    ).toEqual([]);
  }, 120_000);
});
