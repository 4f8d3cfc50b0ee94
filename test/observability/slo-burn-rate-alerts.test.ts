import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/prometheus.js';
import { sloRulesWithShortWaits } from '../helpers/slo-rules-copy.js';
import { useAlertPipeline } from './alert-pipeline.js';

const JOB = 'tool-calls-demo';

describe('SLO burn-rate alerts from the app to the pager and ticket webhooks', () => {
  const stack = useAlertPipeline(() => ({
    rules: sloRulesWithShortWaits(),
    job: JOB,
    serviceName: 'tool-calls-slo-fixture',
  }));
  const { skipUnlessRunning } = stack;
  const notified = (description: string, labels: Record<string, string>) =>
    stack.pipeline().notified(description, labels);

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
    const [burn] = await stack
      .pipeline()
      .prometheus.query(`job_tool:tool_call_slo_availability:burn_rate1h{gen_ai_tool_name="charge_card"}`);
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
    const [burn] = await stack
      .pipeline()
      .prometheus.query(`job_tool:tool_call_slo_availability:burn_rate1d{gen_ai_tool_name="lookup_order"}`);
    expect(Number(burn?.value?.[1])).toBeGreaterThan(3); // 1 in 25 calls: 4
    expect(Number(burn?.value?.[1])).toBeLessThan(6);
    const pagedTools = stack
      .pipeline()
      .webhook.notifications.filter((n) => n.receiver === 'page')
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
      const alerts = await stack.pipeline().alertmanager.alerts();
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
    const ticketed = stack
      .pipeline()
      .webhook.notifications.flatMap((n) =>
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
    const [burn] = await stack
      .pipeline()
      .prometheus.query(`job_tool:tool_call_slo_availability:burn_rate1h{gen_ai_tool_name="web_search"}`);
    expect(Number(burn?.value?.[1])).toBe(0);
    const held = await stack.pipeline().alertmanager.alerts();
    expect(
      held.filter((a) => a.labels.gen_ai_tool_name === 'web_search' || a.labels.gen_ai_tool_name === '_unknown'),
    ).toEqual([]);
  }, 120_000);
});
