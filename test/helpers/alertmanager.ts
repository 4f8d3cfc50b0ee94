/**
 * Runs a real Alertmanager for the tests: on 127.0.0.1 and a free port, clustering off, a throw-away
 * data directory and the given configuration; reads and posts alerts through its API v2.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { freePort } from './free-port.js';
import { answers, startServerProcess } from './server-process.js';

/** An alert as Alertmanager's API v2 gives it back. */
export interface AlertmanagerAlert {
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly fingerprint: string;
  readonly status: { readonly state: 'active' | 'suppressed' | 'unprocessed'; readonly inhibitedBy: readonly string[] };
  readonly receivers: ReadonlyArray<{ readonly name: string }>;
}

export interface RunningAlertmanager {
  /** `127.0.0.1:<port>`: what Prometheus's `alerting.alertmanagers` targets. */
  readonly address: string;
  /** Every alert it holds (active, suppressed or unprocessed). */
  alerts(): Promise<AlertmanagerAlert[]>;
  /** Sends alerts as Prometheus does (POST /api/v2/alerts). */
  postAlerts(
    alerts: ReadonlyArray<{ labels: Record<string, string>; annotations?: Record<string, string>; endsAt?: string }>,
  ): Promise<void>;
  log(): string;
  stop(): Promise<void>;
}

export async function startAlertmanager(binary: string, config: string): Promise<RunningAlertmanager> {
  const dir = mkdtempSync(join(tmpdir(), 'otel-tool-calls-alertmanager-'));
  const configFile = join(dir, 'alertmanager.yml');
  writeFileSync(configFile, config);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let server: Awaited<ReturnType<typeof startServerProcess>>;
  try {
    server = await startServerProcess(
      'Alertmanager',
      binary,
      [
        `--config.file=${configFile}`,
        `--storage.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        // no cluster: it would listen on all interfaces (:9094) and wait for peers before notifying
        '--cluster.listen-address=',
      ],
      { ready: () => answers(`${url}/-/ready`) },
    );
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const api = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${url}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
    const text = await response.text();
    if (!response.ok) throw new Error(`Alertmanager ${path}: HTTP ${response.status} ${text}`);
    return text;
  };
  return {
    address: `127.0.0.1:${port}`,
    alerts: async () => JSON.parse(await api('/api/v2/alerts')) as AlertmanagerAlert[],
    postAlerts: async (alerts) => {
      await api('/api/v2/alerts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(alerts),
      });
    },
    log: server.log,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Route {
  receiver: string;
  group_wait?: string;
  group_interval?: string;
  repeat_interval?: string;
  routes?: Route[];
}

const shippedConfig = fileURLToPath(new URL('../../observability/alertmanager/alertmanager.yml', import.meta.url));

/**
 * The stack's alertmanager.yml with short group waits (1 s, 1 s, 1 h) and a webhook `<url>/<receiver>` on every
 * receiver, which is where a real deployment puts its pager: routes and inhibitions unchanged.
 */
export function alertmanagerWithShortWaits(webhookUrl: string): string {
  const config = parse(readFileSync(shippedConfig, 'utf8')) as {
    route: Route;
    receivers: Array<{ name: string; webhook_configs?: unknown[] }>;
  };
  const shorten = (route: Route) => {
    if (route.group_wait) route.group_wait = '1s';
    if (route.group_interval) route.group_interval = '1s';
    if (route.repeat_interval) route.repeat_interval = '1h';
    for (const child of route.routes ?? []) shorten(child);
  };
  shorten(config.route);
  for (const receiver of config.receivers) {
    receiver.webhook_configs = [{ url: `${webhookUrl}/${receiver.name}`, send_resolved: false }];
  }
  return stringify(config);
}
