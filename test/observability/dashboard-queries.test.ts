/**
 * The "Tool calls" Grafana dashboard works on real data: a real Prometheus scrapes a real app instrumented
 * with OpenTelemetryToolCallListener and the OpenTelemetry Prometheus exporter, and every panel query
 * (template variables substituted as Grafana would) returns data, for "All" and for one selected tool.
 * On each Prometheus there is: the Prometheus 3 that scripts/services.sh builds, and Debian's 2.42.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  type PrometheusSeries,
  type RunningPrometheus,
  skipOrFail,
  startPrometheus,
  waitFor,
} from '../helpers/prometheus.js';
import { binaryRows } from '../helpers/service-binaries.js';
import { sloRulesWithShortWaits } from '../helpers/slo-rules-copy.js';
import { allQueries, dashboard, hasData, interpolate, type Panel, rulesFile, sloRulesFile } from './dashboard.js';
import { type InstrumentedApp, startInstrumentedApp } from './instrumented-app.js';

const prometheusBinaries = binaryRows('prometheus', { binary: 'prometheus', package: 'prometheus' });

function escapeRegex(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The series labels a panel's data links read (`${__field.labels.X}`, `${__data.fields.X}`): each series must carry them. */
function labelsReadByLinks(panel: Panel): string[] {
  const urls = linksOf(panel).map((link) => link.url);
  const names = urls.flatMap((url) =>
    [...url.matchAll(/\$\{__(?:field\.labels|data\.fields)\.(\w+)/g)].map((m) => m[1]!),
  );
  return [...new Set(names)];
}

/** The tools of fixtures/instrumented-tools.ts, and `_unknown` for the names the model made up. */
const FIXTURE_TOOLS = /^(lookup_order|charge_card|web_search|_unknown)$/;

/** The panel's data links, on all fields or on one column. */
function linksOf(panel: Panel): Array<{ url: string }> {
  if (!panel.fieldConfig) return [];
  return [
    ...(panel.fieldConfig.defaults.links ?? []),
    ...panel.fieldConfig.overrides.flatMap((override) =>
      override.properties.filter((p) => p.id === 'links').flatMap((p) => p.value as Array<{ url: string }>),
    ),
  ];
}

describe.each(prometheusBinaries)('Tool calls dashboard on a real Prometheus: $label', ({ gate: prometheusGate }) => {
  let prometheus: RunningPrometheus | undefined;
  let app: InstrumentedApp | undefined;
  let dir: string | undefined;

  beforeAll(async () => {
    if (!prometheusGate.path) return;
    // the SLO rules with their period group evaluated every second (not every minute): the budget panels read it
    dir = mkdtempSync(join(tmpdir(), 'otel-tool-calls-dashboard-'));
    const sloCopy = join(dir, 'tool-calls-slo.rules.yml');
    writeFileSync(sloCopy, sloRulesWithShortWaits());
    app = await startInstrumentedApp();
    prometheus = await startPrometheus(prometheusGate.path, { targets: [app.target], ruleFiles: [rulesFile, sloCopy] });
    await waitFor('a successful scrape of the instrumented app', async () => {
      const targets = await prometheus!.targets();
      return targets.some((target) => target.health === 'up') ? true : undefined;
    });
  }, 90_000);

  afterAll(async () => {
    await prometheus?.stop();
    await app?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('queries only the provisioned Prometheus datasource (uid prometheus)', () => {
    const uids = new Set(allQueries.flatMap(({ panel, target }) => [panel.datasource.uid, target.datasource.uid]));
    expect([...uids]).toEqual(['prometheus']);
    expect(allQueries.length).toBeGreaterThanOrEqual(10);
    expect(dashboard.templating.list.map((variable) => variable.name)).toEqual(['service', 'agent', 'tool']);
  });

  it('names in the alert runbooks only panels the dashboard has', () => {
    const runbooks = [rulesFile, sloRulesFile].flatMap((file) => {
      const rules = parse(readFileSync(file, 'utf8')) as {
        groups: Array<{ rules: Array<{ alert?: string; annotations?: { runbook?: string } }> }>;
      };
      return rules.groups.flatMap((group) => group.rules.flatMap((rule) => rule.annotations?.runbook ?? []));
    });
    const named = runbooks.flatMap((runbook) => [...runbook.matchAll(/"([^"]+)"/g)].map((match) => match[1]!));
    const titles = [dashboard.title, ...dashboard.panels.map((panel) => panel.title)];
    expect(named).toContain('Tool calls the model got wrong');
    expect(named).toContain('Error budget left: availability');
    for (const name of named) expect(titles, name).toContain(name);
  });

  it('links a tool to its traces in Jaeger by service and gen_ai.tool.name (rejected calls: by error.type, and an MCP server’s refusals by rpc.response.status_code)', () => {
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
      expect(pane.queries[0]).toMatchObject({ queryType: 'search', service: 'x' });
      expect(['gen_ai.tool.name=x', 'error.type=x', 'rpc.response.status_code=x']).toContain(pane.queries[0]!.tags);
      expect(panes).toMatch(/"service":"\$\{__(field\.labels|data\.fields)\.service_name:percentencode\}"/);
      expect(panes).toMatch(/(gen_ai\.tool\.name|error\.type|rpc\.response\.status_code)=\$\{__/);
    }
    // a rejected call to a tool the app does not have is `_unknown` in metrics but keeps its name on the
    // span: the panel of rejected calls finds their traces by error.type, not by the tool name; an MCP
    // server's span of a -32601/-32602 refusal has no error.type (the caller's mistake, the MCP
    // conventions' server status rule): two more links find it by rpc.response.status_code, the same code
    const modelErrors = dashboard.panels.find((panel) => panel.title === 'Tool calls the model got wrong');
    expect(modelErrors).toBeDefined();
    const modelErrorLinks = linksOf(modelErrors!).map((link) => decodeURIComponent(link.url));
    expect(modelErrorLinks).toHaveLength(4);
    expect(modelErrorLinks.filter((url) => url.includes('error.type'))).toHaveLength(2);
    expect(modelErrorLinks.filter((url) => url.includes('rpc.response.status_code'))).toHaveLength(2);
    for (const url of modelErrorLinks) {
      expect(url).toMatch(/\$\{__field\.labels\.error_type:percentencode\}/);
      expect(url).not.toContain('gen_ai.tool.name');
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

  it('shows the calls the model got wrong apart from the tools own failures, and leaves them out of latency', async (ctx) => {
    if (!prometheus) return skipOrFail(ctx, prometheusGate);
    /** A panel's query (its target `refId`) evaluated now, for every service, agent and tool. */
    const seriesOf = async (title: string, refId = 'A') => {
      const target = dashboard.panels.find((p) => p.title === title)?.targets?.find((t) => t.refId === refId);
      if (!target) throw new Error(`no query ${refId} in a panel "${title}"`);
      return prometheus!.query(interpolate(target.expr, { service: '.*', agent: '.*', tool: '.*' }));
    };
    const byTool = (series: readonly PrometheusSeries[]) =>
      Object.fromEntries(series.map((s) => [s.metric.gen_ai_tool_name, Number(s.value?.[1])]));

    // every kind of rejected call of the fixture, and nothing else
    const rejected = await waitFor('the three kinds of rejected call', async () => {
      const series = await seriesOf('Tool calls the model got wrong');
      const kinds = series.map((s) => `${s.metric.gen_ai_tool_name}: ${s.metric.error_type}`).sort();
      return kinds.length >= 3 ? kinds : undefined;
    });
    expect(rejected).toEqual([
      '_unknown: AI_NoSuchToolError',
      'charge_card: ToolInputParsingException',
      'web_search: AI_InvalidToolInputError',
    ]);
    // the tools' own failures, none of the rejections
    const toolErrorTypes = await waitFor('the three error types of the tools', async () => {
      const types = new Set((await seriesOf('Top tool error types')).map((s) => s.metric.error_type));
      return types.size >= 3 ? types : undefined;
    });
    expect(toolErrorTypes).toEqual(new Set(['NOT_FOUND', 'CARD_DECLINED', 'GATEWAY_TIMEOUT']));

    // web_search never fails when it runs, though the model gets a fifth of its calls wrong
    const toolErrorRatio = byTool(await seriesOf('Tool error ratio by tool'));
    expect(toolErrorRatio.web_search).toBe(0);
    expect(toolErrorRatio.charge_card).toBeGreaterThan(0.3); // half the calls it runs fail
    expect(toolErrorRatio).not.toHaveProperty('_unknown'); // it never ran
    const modelErrorRatio = byTool(await seriesOf('Model error ratio by tool'));
    expect(modelErrorRatio.web_search).toBeGreaterThan(0.1); // 1 in 5
    expect(modelErrorRatio.web_search).toBeLessThan(0.3);
    expect(modelErrorRatio.lookup_order).toBe(0);
    // 1 in about 8 of all calls: a share of all the calls, not of its own (which would be 1)
    expect(modelErrorRatio._unknown).toBeGreaterThan(0.05);
    expect(modelErrorRatio._unknown).toBeLessThan(0.25);

    // the latency of a tool is of the calls it ran: no series at all for _unknown
    for (const refId of ['A', 'B', 'C']) {
      const tools = Object.keys(byTool(await seriesOf('Latency p50 / p95 / p99 by tool', refId)));
      expect(tools).toContain('web_search');
      expect(tools).not.toContain('_unknown');
    }
    expect(Object.keys(byTool(await seriesOf('Tools', 'C')))).not.toContain('_unknown');

    // the error budget row: a burn over 30 days is a ratio, so these seconds of data give it its final value
    const left = await waitFor('a budget for the three tools, lookup_order with a failure spent', async () => {
      const found = byTool(await seriesOf('Error budget left: availability'));
      return ['web_search', 'charge_card', 'lookup_order'].every((tool) => tool in found) && found.lookup_order! < 1
        ? found
        : undefined;
    });
    expect(left.web_search).toBe(1); // the model's wrong calls spend none of it
    // 4% errors against a 1% budget: overspent (1 - 4 once every call is scraped; the first reading may
    // come from a few calls: 1 failure in 11 is 1 - 9.1), and far from a tool whose every call fails (1 - 100)
    expect(left.lookup_order).toBeLessThan(0);
    expect(left.lookup_order).toBeGreaterThan(-20);
    expect(left.charge_card).toBeLessThan(-30); // half its calls fail: about 1 - 50
    expect(left).not.toHaveProperty('_unknown'); // it never ran
    expect(byTool(await seriesOf('Error budget left: latency')).web_search).toBe(1); // every call under 2.56 s
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
        const linkLabels = labelsReadByLinks(panel);
        if (linkLabels.length > 0) {
          // the trace links read these labels from the series: each series must carry them
          for (const s of series) {
            for (const label of linkLabels)
              expect(s.metric[label], `${label} of ${JSON.stringify(s.metric)}`).toBeTruthy();
            expect(s.metric.service_name).toBe('tool-calls-fixture');
            expect(s.metric.gen_ai_tool_name).toMatch(FIXTURE_TOOLS);
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
