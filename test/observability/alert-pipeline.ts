import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startAlertWebhook, type WebhookNotification } from '../helpers/alert-webhook.js';
import { alertmanagerWithShortWaits, type RunningAlertmanager, startAlertmanager } from '../helpers/alertmanager.js';
import { type RunningPrometheus, skipOrFail, startPrometheus, waitFor } from '../helpers/prometheus.js';
import { serviceGate } from '../helpers/service-binaries.js';
import { type InstrumentedApp, startInstrumentedApp } from './instrumented-app.js';

/** The stack's alert path on the real servers: app → Prometheus with `rules` → Alertmanager → webhooks. */
export interface AlertPipeline {
  readonly app: InstrumentedApp;
  readonly prometheus: RunningPrometheus;
  readonly alertmanager: RunningAlertmanager;
  readonly webhook: Awaited<ReturnType<typeof startAlertWebhook>>;
  /** The first notification with an alert matching `labels`, waited for (bounded). */
  notified(
    description: string,
    labels: Record<string, string>,
  ): Promise<{ notification: WebhookNotification; alert: WebhookNotification['alerts'][number] }>;
  stop(): Promise<void>;
}

export async function startAlertPipeline(
  binaries: { readonly prometheus: string; readonly alertmanager: string },
  { rules, job, serviceName }: { readonly rules: string; readonly job: string; readonly serviceName?: string },
): Promise<AlertPipeline> {
  const dir = mkdtempSync(join(tmpdir(), 'otel-tool-calls-alerts-'));
  const rulesFile = join(dir, 'rules.yml');
  writeFileSync(rulesFile, rules);
  const webhook = await startAlertWebhook();
  const alertmanager = await startAlertmanager(binaries.alertmanager, alertmanagerWithShortWaits(webhook.url));
  const app = await startInstrumentedApp(serviceName === undefined ? {} : { serviceName });
  const prometheus = await startPrometheus(binaries.prometheus, {
    targets: [app.target],
    jobName: job,
    ruleFiles: [rulesFile],
    alertmanagers: [alertmanager.address],
  });
  return {
    app,
    prometheus,
    alertmanager,
    webhook,
    notified: (description, labels) =>
      waitFor(
        description,
        async () => {
          for (const notification of webhook.notifications) {
            const alert = notification.alerts.find((a) => Object.entries(labels).every(([k, v]) => a.labels[k] === v));
            if (alert) return { notification, alert };
          }
          return undefined;
        },
        { timeoutMs: 90_000, intervalMs: 500 },
      ),
    async stop() {
      await prometheus.stop();
      await app.stop();
      await alertmanager.stop();
      await webhook.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const prometheusGate = serviceGate('prometheus', { binary: 'prometheus', package: 'prometheus' });
const alertmanagerGate = serviceGate('alertmanager', {
  binary: 'prometheus-alertmanager',
  package: 'prometheus-alertmanager',
});

/**
 * One alert pipeline for a describe block: started before its tests (when both servers are here),
 * stopped after them. Each test calls `skipUnlessRunning(ctx)` first (a missing server skips it, or
 * fails it under REQUIRE_SERVICES=1), then reads `pipeline()`.
 */
export function useAlertPipeline(
  options: Parameters<typeof startAlertPipeline>[1] | (() => Parameters<typeof startAlertPipeline>[1]),
) {
  let pipeline: AlertPipeline | undefined;
  beforeAll(async () => {
    if (!prometheusGate.path || !alertmanagerGate.path) return;
    const binaries = { prometheus: prometheusGate.path, alertmanager: alertmanagerGate.path };
    pipeline = await startAlertPipeline(binaries, typeof options === 'function' ? options() : options);
  }, 90_000);
  afterAll(async () => {
    await pipeline?.stop();
  });
  return {
    skipUnlessRunning(ctx: { skip(note?: string): never }): void {
      if (!prometheusGate.path) skipOrFail(ctx, prometheusGate);
      if (!alertmanagerGate.path) skipOrFail(ctx, alertmanagerGate);
    },
    pipeline(): AlertPipeline {
      if (pipeline === undefined) throw new Error('the alert pipeline did not start');
      return pipeline;
    },
  };
}
