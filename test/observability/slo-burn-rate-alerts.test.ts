/**
 * The SLO burn-rate alerts end to end, on the real servers: an instrumented app (fixtures/instrumented-tools.ts)
 * → the generated rules/tool-calls-slo.rules.yml on the real Prometheus → the stack's alertmanager.yml on the
 * real Alertmanager → webhooks on 127.0.0.1. With the 99% availability objective of slos.yml:
 * - charge_card fails half the calls it runs (burn 50): the fast burn pages; its slow-burn ticket is held
 *   back by the inhibition rule;
 * - lookup_order fails 4% (burn 4): past the ticket rows' 3 and 1, under the pages' 6 and 14.4: a ticket;
 * - web_search never fails when it runs, though the model gets a fifth of its calls wrong: nothing.
 * A burn rate is a ratio of rates, so a few seconds of data give the same burn as hours of it.
 *
 * The test copies differ from the project's files in the waits only: the rules' `for: 2m`/`15m` become 2 s/15 s
 * and the period group's `interval: 1m` becomes 1 s; Alertmanager's group waits 1 s (alertmanagerWithShortWaits).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAlertWebhook } from '../helpers/alert-webhook.js';
import { alertmanagerWithShortWaits, type RunningAlertmanager, startAlertmanager } from '../helpers/alertmanager.js';
import { type RunningPrometheus, skipOrFail, startPrometheus, waitFor } from '../helpers/prometheus.js';
import { serviceGate } from '../helpers/service-binaries.js';
import { sloRulesWithShortWaits } from '../helpers/slo-rules-copy.js';
import { type InstrumentedApp, startInstrumentedApp } from './instrumented-app.js';

const prometheusGate = serviceGate('prometheus', { binary: 'prometheus', package: 'prometheus' });
const alertmanagerGate = serviceGate('alertmanager', {
  binary: 'prometheus-alertmanager',
  package: 'prometheus-alertmanager',
});
const JOB = 'tool-calls-demo';

describe('SLO burn-rate alerts from the app to the pager and ticket webhooks', () => {
  let app: InstrumentedApp | undefined;
  let prometheus: RunningPrometheus | undefined;
  let alertmanager: RunningAlertmanager | undefined;
  let webhook: Awaited<ReturnType<typeof startAlertWebhook>> | undefined;
  let dir: string | undefined;

  beforeAll(async () => {
    if (!prometheusGate.path || !alertmanagerGate.path) return;
    dir = mkdtempSync(join(tmpdir(), 'otel-tool-calls-slo-'));
    const rulesFile = join(dir, 'tool-calls-slo.rules.yml');
    writeFileSync(rulesFile, sloRulesWithShortWaits());
    webhook = await startAlertWebhook();
    alertmanager = await startAlertmanager(alertmanagerGate.path, alertmanagerWithShortWaits(webhook.url));
    app = await startInstrumentedApp({ serviceName: 'tool-calls-slo-fixture' });
    prometheus = await startPrometheus(prometheusGate.path, {
      targets: [app.target],
      jobName: JOB,
      ruleFiles: [rulesFile],
      alertmanagers: [alertmanager.address],
    });
  }, 90_000);

  afterAll(async () => {
    await prometheus?.stop();
    await app?.stop();
    await alertmanager?.stop();
    await webhook?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const skipUnlessRunning = (ctx: { skip(note?: string): never }) => {
    if (!prometheusGate.path) return skipOrFail(ctx, prometheusGate);
    if (!alertmanagerGate.path) return skipOrFail(ctx, alertmanagerGate);
  };

  /** The first notification with an alert matching `labels`, waited for (bounded). */
  const notified = (description: string, labels: Record<string, string>) =>
    waitFor(
      description,
      async () => {
        for (const notification of webhook!.notifications) {
          const alert = notification.alerts.find((a) => Object.entries(labels).every(([k, v]) => a.labels[k] === v));
          if (alert) return { notification, alert };
        }
        return undefined;
      },
      { timeoutMs: 90_000, intervalMs: 500 },
    );

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
    const [burn] = await prometheus!.query(
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
    const [burn] = await prometheus!.query(
      `job_tool:tool_call_slo_availability:burn_rate1d{gen_ai_tool_name="lookup_order"}`,
    );
    expect(Number(burn?.value?.[1])).toBeGreaterThan(3); // 1 in 25 calls: 4
    expect(Number(burn?.value?.[1])).toBeLessThan(6);
    const pagedTools = webhook!.notifications
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
      const alerts = await alertmanager!.alerts();
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
    const ticketed = webhook!.notifications.flatMap((n) =>
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
    const [burn] = await prometheus!.query(
      `job_tool:tool_call_slo_availability:burn_rate1h{gen_ai_tool_name="web_search"}`,
    );
    expect(Number(burn?.value?.[1])).toBe(0);
    const held = await alertmanager!.alerts();
    expect(
      held.filter((a) => a.labels.gen_ai_tool_name === 'web_search' || a.labels.gen_ai_tool_name === '_unknown'),
    ).toEqual([]);
  }, 120_000);
});
