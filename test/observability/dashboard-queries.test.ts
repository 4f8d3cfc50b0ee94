/**
 * The "Tool calls" Grafana dashboard works on real data: a real Prometheus scrapes a real app instrumented
 * with OpenTelemetryToolCallListener and the OpenTelemetry Prometheus exporter, and every panel query
 * (template variables substituted as Grafana would) returns data, for "All" and for one selected tool.
 * On each Prometheus there is: the Prometheus 3 that scripts/services.sh builds, and Debian's 2.42.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PrometheusSeries,
  type RunningPrometheus,
  skipOrFail,
  startPrometheus,
  waitFor,
} from '../helpers/prometheus.js';
import { binaryRows } from '../helpers/service-binaries.js';
import { type InstrumentedApp, startInstrumentedApp } from './instrumented-app.js';

interface Target {
  refId: string;
  expr: string;
  instant?: boolean;
  datasource: { type: string; uid: string };
}
interface Panel {
  id: number;
  title: string;
  type: string;
  datasource: { type: string; uid: string };
  targets: Target[];
  fieldConfig: {
    defaults: { links?: Array<{ url: string }> };
    overrides: Array<{ properties: Array<{ id: string; value: unknown }> }>;
  };
}
interface Variable {
  name: string;
  allValue: string;
  query: { query: string };
}
interface Dashboard {
  title: string;
  panels: Panel[];
  templating: { list: Variable[] };
}

const dashboard = JSON.parse(
  readFileSync(
    fileURLToPath(new URL('../../observability/grafana/dashboards/tool-calls.json', import.meta.url)),
    'utf8',
  ),
) as Dashboard;
const rulesFile = fileURLToPath(new URL('../../observability/prometheus/rules/tool-calls.rules.yml', import.meta.url));
const prometheusBinaries = binaryRows('prometheus', { binary: 'prometheus', package: 'prometheus' });

/**
 * Grafana's substitution for the few variables the dashboard uses. The rate window is wider than four
 * 1 s scrapes, as Grafana's $__rate_interval is for its scrape interval.
 */
function interpolate(expr: string, values: Record<string, string>): string {
  return expr
    .replaceAll('$__rate_interval', '15s')
    .replaceAll('$__range', '5m')
    .replace(/\$(\w+)/g, (whole, name: string) => values[name] ?? whole);
}

function escapeRegex(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A finite number somewhere in the result: Grafana would draw something. */
function hasData(series: readonly PrometheusSeries[]): boolean {
  const samples = series.flatMap((s) => (s.value ? [s.value] : (s.values ?? [])));
  return samples.some(([, value]) => Number.isFinite(Number(value)));
}

/** The panel's data links, on all fields or on one column. */
function linksOf(panel: Panel): Array<{ url: string }> {
  return [
    ...(panel.fieldConfig.defaults.links ?? []),
    ...panel.fieldConfig.overrides.flatMap((override) =>
      override.properties.filter((p) => p.id === 'links').flatMap((p) => p.value as Array<{ url: string }>),
    ),
  ];
}

const allQueries = dashboard.panels.flatMap((panel) => panel.targets.map((target) => ({ panel, target })));

describe.each(prometheusBinaries)('Tool calls dashboard on a real Prometheus: $label', ({ gate: prometheusGate }) => {
  let prometheus: RunningPrometheus | undefined;
  let app: InstrumentedApp | undefined;

  beforeAll(async () => {
    if (!prometheusGate.path) return;
    app = await startInstrumentedApp();
    prometheus = await startPrometheus(prometheusGate.path, { targets: [app.target], ruleFiles: [rulesFile] });
    await waitFor('a successful scrape of the instrumented app', async () => {
      const targets = await prometheus!.targets();
      return targets.some((target) => target.health === 'up') ? true : undefined;
    });
  }, 90_000);

  afterAll(async () => {
    await prometheus?.stop();
    await app?.stop();
  });

  it('queries only the provisioned Prometheus datasource (uid prometheus)', () => {
    const uids = new Set(allQueries.flatMap(({ panel, target }) => [panel.datasource.uid, target.datasource.uid]));
    expect([...uids]).toEqual(['prometheus']);
    expect(allQueries.length).toBeGreaterThanOrEqual(10);
    expect(dashboard.templating.list.map((variable) => variable.name)).toEqual(['service', 'agent', 'tool']);
  });

  it('links a tool to its traces in Jaeger by service and gen_ai.tool.name', () => {
    const links = dashboard.panels.flatMap(linksOf);
    const explore = links.map((link) => link.url).filter((url) => url.startsWith('/explore?'));
    expect(explore.length).toBeGreaterThanOrEqual(4);
    for (const url of explore) {
      const panes = decodeURIComponent(new URL(url, 'http://grafana').searchParams.get('panes') ?? '');
      // Grafana variables stay as they are through decoding: the JSON is valid once they are substituted
      const substituted = panes.replace(/\$\{[^}]+\}/g, 'x');
      const pane = (
        JSON.parse(substituted) as Record<string, { datasource: string; queries: Array<Record<string, string>> }>
      ).traces!;
      expect(pane.datasource).toBe('jaeger');
      expect(pane.queries[0]).toMatchObject({ queryType: 'search', service: 'x', tags: 'gen_ai.tool.name=x' });
      expect(panes).toMatch(/"service":"\$\{__(field\.labels|data\.fields)\.service_name:percentencode\}"/);
      expect(panes).toContain('gen_ai.tool.name=${__');
    }
  });

  it('finds the app in each template variable query', async (ctx) => {
    if (!prometheus || !app) return skipOrFail(ctx, prometheusGate);
    const expected = { service: app.serviceName, agent: app.agentName, tool: 'charge_card' };
    for (const variable of dashboard.templating.list) {
      // label_values(<series selector>, <label>) is what Grafana sends to /api/v1/label/<label>/values
      const match = /^label_values\((.*),\s*(\w+)\)$/.exec(variable.query.query);
      expect(match, variable.query.query).not.toBeNull();
      const [, selector = '', label = ''] = match!;
      const values = await waitFor(`values of $${variable.name}`, async () => {
        const found = await prometheus!.labelValues(label, interpolate(selector, { agent: '.*' }));
        return found.includes(expected[variable.name as keyof typeof expected]) ? found : undefined;
      });
      expect(values).toContain(expected[variable.name as keyof typeof expected]);
    }
  });

  describe.each([
    { selection: 'All', values: { service: '.*', agent: '.*', tool: '.*' } },
    {
      selection: 'one service, agent and tool',
      values: { service: escapeRegex('tool-calls-fixture'), agent: escapeRegex('support-agent'), tool: 'charge_card' },
    },
  ])('with $selection selected', ({ values }) => {
    it.for(allQueries.map(({ panel, target }) => ({ name: `${panel.title} ${target.refId}`, panel, target })))(
      'panel query $name returns data',
      async ({ panel, target }, ctx) => {
        if (!prometheus) return skipOrFail(ctx, prometheusGate);
        const expr = interpolate(target.expr, values);
        expect(expr).not.toContain('$');
        const series = await waitFor(
          `data for ${expr}`,
          async () => {
            const result = target.instant ? await prometheus!.query(expr) : await prometheus!.queryRange(expr, 60, 1);
            return hasData(result) ? result : undefined;
          },
          { timeoutMs: 60_000, intervalMs: 500 },
        );
        expect(hasData(series)).toBe(true);
        if (linksOf(panel).length > 0) {
          // the trace links read these labels from the series: each series must carry them
          for (const s of series) {
            expect(s.metric.service_name).toBe('tool-calls-fixture');
            expect(s.metric.gen_ai_tool_name).toMatch(/^(lookup_order|charge_card|web_search)$/);
          }
        }
        if (values.tool !== '.*') {
          // the selection filters: only the selected tool (heatmap and top errors keep their own grouping)
          const tools = new Set(series.map((s) => s.metric.gen_ai_tool_name).filter((name) => name !== undefined));
          expect([...tools].every((name) => name === 'charge_card')).toBe(true);
        }
      },
    );
  });
});
