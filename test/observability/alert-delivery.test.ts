/**
 * Alerts end to end, on the real servers: an instrumented app with a failing tool (fixtures/
 * instrumented-tools.ts: charge_card fails half its calls) → the project's alert rules on the real
 * Prometheus → the project's observability/alertmanager/alertmanager.yml on the real Alertmanager → a
 * webhook receiver on 127.0.0.1, which gets the alert with the tool's name, severity and runbook, through
 * the receiver the severity routes to. A healthy tool raises nothing; the calls the model got wrong
 * (web_search's, and the names it makes up, _unknown) are a ticket, never a page; the inhibition rule holds.
 *
 * The test copies of the configuration differ from the project's files in the waits only, so that the
 * test takes seconds instead of minutes: the rules' `for: 5m`/`15m`/`10m` become 5 s/15 s/10 s, Alertmanager's
 * group_wait/group_interval/repeat_interval become 1 s/1 s/1 h; and each receiver gets a webhook (with its
 * own path), which is where a real deployment puts its pager.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { waitFor, waitForJudgeableHealthyTool } from '../helpers/prometheus.js';
import { useAlertPipeline } from './alert-pipeline.js';

const observability = (path: string) => fileURLToPath(new URL(`../../observability/${path}`, import.meta.url));
const JOB = 'tool-calls-demo';

/** The rules file with its `for:` durations in seconds instead of minutes (and nothing else changed). */
function rulesWithShortWaits(): string {
  const rules = readFileSync(observability('prometheus/rules/tool-calls.rules.yml'), 'utf8');
  const shortened = rules.replace(/^(\s+for: )(\d+)m$/gm, '$1$2s');
  const changed = shortened.split('\n').filter((line, i) => line !== rules.split('\n')[i]);
  expect(changed.map((line) => line.trim())).toEqual(['for: 5s', 'for: 15s', 'for: 10s', 'for: 10s']);
  return shortened;
}

describe('tool-call alerts from the app to a pager webhook', () => {
  const stack = useAlertPipeline(() => ({ rules: rulesWithShortWaits(), job: JOB }));
  const { skipUnlessRunning } = stack;
  const notified = (description: string, labels: Record<string, string>) =>
    stack.pipeline().notified(description, labels);

  it('pages on the failing tool: its name, severity and runbook reach the page receiver', async (ctx) => {
    skipUnlessRunning(ctx);
    const { notification, alert } = await notified('ToolCallErrorRatioHigh for charge_card at the webhook', {
      alertname: 'ToolCallErrorRatioHigh',
      gen_ai_tool_name: 'charge_card',
    });
    expect(notification.path).toBe('/page');
    expect(notification.receiver).toBe('page');
    expect(notification.status).toBe('firing');
    expect(notification.groupLabels).toEqual({
      alertname: 'ToolCallErrorRatioHigh',
      job: JOB,
      gen_ai_tool_name: 'charge_card',
    });
    expect(alert.status).toBe('firing');
    expect(alert.labels).toMatchObject({ job: JOB, severity: 'page', gen_ai_tool_name: 'charge_card' });
    expect(alert.annotations.summary).toMatch(/^Tool charge_card fails \d+(\.\d+)?% of its calls \(tool-calls-demo\)$/);
    expect(alert.annotations.runbook).toContain('gen_ai.tool.name=charge_card');
    expect(alert.annotations.runbook).toContain('"Tool calls" dashboard');
  }, 120_000);

  it('raises nothing for the healthy tools that the rule has enough data to judge', async (ctx) => {
    skipUnlessRunning(ctx);
    // as in error-ratio-alert.test.ts: once lookup_order has a small non-zero error ratio on enough calls, an
    // evaluation after that is the rule's verdict; then neither Alertmanager nor the webhook has anything for it
    await waitForJudgeableHealthyTool(stack.pipeline().prometheus, 'lookup_order');
    const dataSeenAt = Date.now();
    await waitFor('an evaluation of the rules after that', async () => {
      const rules = await stack.pipeline().prometheus.alertingRules();
      const rule = rules.find((r) => r.name === 'ToolCallErrorRatioHigh');
      return Date.parse(rule?.lastEvaluation ?? '') > dataSeenAt + 1_000 ? rule : undefined;
    });
    // the pipeline is live (charge_card got through), and nothing else did
    await notified('the charge_card page', { alertname: 'ToolCallErrorRatioHigh', gen_ai_tool_name: 'charge_card' });
    const held = await stack.pipeline().alertmanager.alerts();
    const errorAlerts = held.filter((a) => a.labels.alertname === 'ToolCallErrorRatioHigh');
    expect(errorAlerts.map((a) => a.labels.gen_ai_tool_name)).toEqual(['charge_card']);
    // nothing but charge_card was paged (web_search's and _unknown's model error tickets go elsewhere)
    const pagedTools = stack
      .pipeline()
      .webhook.notifications.filter((n) => n.receiver === 'page')
      .flatMap((n) => n.alerts.map((a) => a.labels.gen_ai_tool_name));
    expect(new Set(pagedTools)).toEqual(new Set(['charge_card']));
  }, 120_000);

  it('tickets the calls the model got wrong through the ticket receiver, never pages them', async (ctx) => {
    skipUnlessRunning(ctx);
    const { notification, alert } = await notified('ToolCallModelErrorRatioHigh for web_search at the webhook', {
      alertname: 'ToolCallModelErrorRatioHigh',
      gen_ai_tool_name: 'web_search',
    });
    expect(notification.path).toBe('/ticket');
    expect(notification.receiver).toBe('ticket');
    expect(alert.labels).toMatchObject({ job: JOB, severity: 'ticket', gen_ai_tool_name: 'web_search' });
    expect(alert.annotations.runbook).toContain('"Tool calls the model got wrong"');
    await notified('ToolCallModelErrorRatioHigh for _unknown at the webhook', {
      alertname: 'ToolCallModelErrorRatioHigh',
      gen_ai_tool_name: '_unknown',
    });
    const modelErrorReceivers = stack
      .pipeline()
      .webhook.notifications.filter((n) => n.alerts.some((a) => a.labels.alertname === 'ToolCallModelErrorRatioHigh'))
      .map((n) => n.receiver);
    expect(new Set(modelErrorReceivers)).toEqual(new Set(['ticket']));
  }, 120_000);

  it('holds back the latency ticket of a tool whose error alert fires (the inhibition rule), not of others', async (ctx) => {
    skipUnlessRunning(ctx);
    const errorAlert = await notified('the charge_card page', {
      alertname: 'ToolCallErrorRatioHigh',
      gen_ai_tool_name: 'charge_card',
    });
    // no tool of the fixture is slow enough for ToolCallLatencyHigh: send two such alerts as Prometheus would
    const latency = (tool: string) => ({
      labels: { alertname: 'ToolCallLatencyHigh', job: JOB, gen_ai_tool_name: tool, severity: 'ticket' },
      annotations: { summary: `Tool ${tool} p95 latency is 3s (${JOB})` },
      endsAt: new Date(Date.now() + 10 * 60_000).toISOString(),
    });
    await stack.pipeline().alertmanager.postAlerts([latency('charge_card'), latency('web_search')]);
    // the other tool's ticket is delivered, through the ticket receiver
    const ticket = await notified('the web_search latency ticket', {
      alertname: 'ToolCallLatencyHigh',
      gen_ai_tool_name: 'web_search',
    });
    expect(ticket.notification.receiver).toBe('ticket');
    // and Alertmanager says why charge_card's is not: suppressed, inhibited by the firing error alert
    const held = await stack.pipeline().alertmanager.alerts();
    const source = held.find(
      (a) => a.labels.alertname === 'ToolCallErrorRatioHigh' && a.labels.gen_ai_tool_name === 'charge_card',
    );
    const inhibited = held.find(
      (a) => a.labels.alertname === 'ToolCallLatencyHigh' && a.labels.gen_ai_tool_name === 'charge_card',
    );
    expect(source?.status.state).toBe('active');
    expect(inhibited?.status).toMatchObject({ state: 'suppressed', inhibitedBy: [source?.fingerprint] });
    expect(
      held.find((a) => a.labels.alertname === 'ToolCallLatencyHigh' && a.labels.gen_ai_tool_name === 'web_search')
        ?.status.state,
    ).toBe('active');
    const charged = stack
      .pipeline()
      .webhook.notifications.flatMap((n) =>
        n.alerts.filter(
          (a) => a.labels.alertname === 'ToolCallLatencyHigh' && a.labels.gen_ai_tool_name === 'charge_card',
        ),
      );
    expect(charged).toEqual([]);
    expect(errorAlert.notification.receiver).toBe('page');
  }, 120_000);
});
