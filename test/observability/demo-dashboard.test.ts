/**
 * The demo's workload fills the "Tool calls" dashboard: a real Prometheus, with the alert and SLO rules,
 * scrapes the demo as `npm start` runs it, and every panel query ("All" selected) returns data, the panel of
 * the calls the model got wrong included. On each Prometheus there is: the Prometheus 3 that
 * scripts/services.sh builds, and Debian's 2.42.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo } from '../helpers/demo.js';
import { freePort } from '../helpers/free-port.js';
import { type RunningPrometheus, skipOrFail, startPrometheus, waitFor } from '../helpers/prometheus.js';
import { binaryRows } from '../helpers/service-binaries.js';
import { sloRulesWithShortWaits } from '../helpers/slo-rules-copy.js';
import { allQueries, dashboard, hasData, interpolate, rulesFile } from './dashboard.js';

const prometheusBinaries = binaryRows('prometheus', { binary: 'prometheus', package: 'prometheus' });
const ALL = { service: '.*', agent: '.*', tool: '.*' };
/** Long enough for every query below to find its data while the demo runs; it is stopped after them. */
const DEMO_SECONDS = 150;

describe.each(prometheusBinaries)('the demo fills the Tool calls dashboard: $label', ({ gate: prometheusGate }) => {
  let demo: ReturnType<typeof startDemo> | undefined;
  let prometheus: RunningPrometheus | undefined;
  let dir: string | undefined;

  beforeAll(async () => {
    if (!prometheusGate.path) return;
    const port = await freePort();
    demo = startDemo(
      ['--duration', String(DEMO_SECONDS), '--rate', '5', '--metrics-port', String(port)],
      // the scrape target on loopback, as the tests' network rule asks; the rest is the user's default
      { OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1' },
      (DEMO_SECONDS + 30) * 1000,
    );
    // the SLO rules with their period group evaluated every second: the error budget panels read it
    dir = mkdtempSync(join(tmpdir(), 'otel-tool-calls-demo-dashboard-'));
    const sloCopy = join(dir, 'tool-calls-slo.rules.yml');
    writeFileSync(sloCopy, sloRulesWithShortWaits());
    prometheus = await startPrometheus(prometheusGate.path, {
      targets: [`127.0.0.1:${port}`],
      ruleFiles: [rulesFile, sloCopy],
    });
    await waitFor(
      'a successful scrape of the demo',
      async () => ((await prometheus!.targets()).some((target) => target.health === 'up') ? true : undefined),
      { timeoutMs: 60_000, intervalMs: 500 },
    );
  }, 120_000);

  afterAll(async () => {
    demo?.kill();
    await demo?.exited;
    await prometheus?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows the calls the model got wrong: a tool the app does not have, and arguments a schema refuses', async (ctx) => {
    if (!prometheus) return skipOrFail(ctx, prometheusGate);
    const target = dashboard.panels.find((panel) => panel.title === 'Tool calls the model got wrong')?.targets?.[0];
    expect(target).toBeDefined();
    const kinds = await waitFor(
      'both kinds of wrong call in the panel',
      async () => {
        const series = await prometheus!.query(interpolate(target!.expr, ALL));
        const found = series.map((s) => `${s.metric.gen_ai_tool_name}: ${s.metric.error_type}`).sort();
        return found.length >= 2 ? found : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(kinds).toEqual(['_unknown: AI_NoSuchToolError', 'sql_query: AI_InvalidToolInputError']);
  }, 70_000);

  it.for(allQueries.map(({ panel, target }) => ({ name: `${panel.title} ${target.refId}`, target })))(
    'panel query $name returns data',
    { timeout: 70_000 },
    async ({ target }, ctx) => {
      if (!prometheus) return skipOrFail(ctx, prometheusGate);
      const expr = interpolate(target.expr, ALL);
      const series = await waitFor(
        `data for ${expr}`,
        async () => {
          const result = target.instant ? await prometheus!.query(expr) : await prometheus!.queryRange(expr, 60, 1);
          return hasData(result) ? result : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 500 },
      );
      expect(hasData(series)).toBe(true);
    },
  );
});
