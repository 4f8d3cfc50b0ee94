/**
 * The "Tool calls" Grafana dashboard and the alert rules, as the tests that run its panel queries on a real
 * Prometheus read them (dashboard-queries.test.ts on a fixture app, demo-dashboard.test.ts on the demo).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PrometheusSeries } from '../helpers/prometheus.js';

export interface Target {
  refId: string;
  expr: string;
  instant?: boolean;
  datasource: { type: string; uid: string };
}
export interface Panel {
  id: number;
  title: string;
  type: string;
  datasource: { type: string; uid: string };
  /** none for a row */
  targets?: Target[];
  fieldConfig?: {
    defaults: { links?: Array<{ url: string }> };
    overrides: Array<{ properties: Array<{ id: string; value: unknown }> }>;
  };
}
export interface Variable {
  name: string;
  allValue: string;
  query: { query: string };
}
export interface Dashboard {
  title: string;
  panels: Panel[];
  templating: { list: Variable[] };
}

export const dashboard = JSON.parse(
  readFileSync(
    fileURLToPath(new URL('../../observability/grafana/dashboards/tool-calls.json', import.meta.url)),
    'utf8',
  ),
) as Dashboard;

/** Every query of every panel, with its panel. */
export const allQueries = dashboard.panels.flatMap((panel) =>
  (panel.targets ?? []).map((target) => ({ panel, target })),
);

export const rulesFile = fileURLToPath(
  new URL('../../observability/prometheus/rules/tool-calls.rules.yml', import.meta.url),
);
export const sloRulesFile = fileURLToPath(
  new URL('../../observability/prometheus/rules/tool-calls-slo.rules.yml', import.meta.url),
);

/**
 * Grafana's substitution for the few variables the dashboard uses. The rate window is wider than four
 * 1 s scrapes, as Grafana's $__rate_interval is for its scrape interval.
 */
export function interpolate(expr: string, values: Record<string, string>): string {
  return expr
    .replaceAll('$__rate_interval', '15s')
    .replaceAll('$__range', '5m')
    .replace(/\$(\w+)/g, (whole, name: string) => values[name] ?? whole);
}

/** A finite number somewhere in the result: Grafana would draw something. */
export function hasData(series: readonly PrometheusSeries[]): boolean {
  const samples = series.flatMap((s) => (s.value ? [s.value] : (s.values ?? [])));
  return samples.some(([, value]) => Number.isFinite(Number(value)));
}

/** Queries Prometheus the way a panel does: instant for an instant target, else the last minute by the second. */
export interface PanelQuerier {
  query(expr: string): Promise<PrometheusSeries[]>;
  queryRange(expr: string, seconds: number, stepSeconds?: number): Promise<PrometheusSeries[]>;
}

/**
 * The panel queries (`<panel title> <refId>`) that still return no data after `timeoutMs`, the variables
 * substituted by `values`: each query is asked again until it has data or the time is up. `[]`: every
 * panel would draw something.
 */
export async function queriesWithoutData(
  prometheus: PanelQuerier,
  values: Record<string, string>,
  timeoutMs = 90_000,
): Promise<string[]> {
  const pending = new Map(allQueries.map(({ panel, target }) => [`${panel.title} ${target.refId}`, target]));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const [name, target] of pending) {
      const expr = interpolate(target.expr, values);
      const result = target.instant ? await prometheus.query(expr) : await prometheus.queryRange(expr, 60, 1);
      if (hasData(result)) pending.delete(name);
    }
    if (pending.size === 0 || Date.now() >= deadline) return [...pending.keys()];
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
