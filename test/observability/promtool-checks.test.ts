/**
 * The stack's Prometheus and Alertmanager configuration passes the official checkers, and the alert
 * rules pass their promtool unit tests (observability/prometheus/tests/): firing for a failing or slow
 * busy tool, silent for healthy tools and for tools with too few calls; calls the model got wrong (rejected
 * before the tool ran) raise a ticket of their own, never the tool's page, and stay out of its latency. On each promtool/amtool there is:
 * the ones scripts/services.sh builds (Prometheus 3, the stack's), and Debian's (2.42) while it is cheap.
 * Each unit test file runs twice: its series as an app's /metrics spells them, and as OTLP does (the
 * collector's, Prometheus' OTLP receiver's: `gen_ai_execute_tool_duration_seconds_*`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand, skipOrFail } from '../helpers/prometheus.js';
import { binaryRows } from '../helpers/service-binaries.js';
import { asPushed } from './metric-spellings.js';

const observability = (path: string) => fileURLToPath(new URL(`../../observability/${path}`, import.meta.url));
const promtools = binaryRows('promtool', { binary: 'promtool', package: 'prometheus' });
const amtools = binaryRows('amtool', { binary: 'amtool', package: 'prometheus-alertmanager' });

const copies = mkdtempSync(join(tmpdir(), 'otel-tool-calls-promtool-'));
afterAll(() => rmSync(copies, { recursive: true, force: true }));

/**
 * A promtool test file as it is ('scraped'), or a copy with its series spelled as OTLP spells them
 * ('pushed'), its rule files then named by their absolute paths.
 */
function rulesTestFile(file: string, spelling: 'scraped' | 'pushed'): string {
  const original = observability(`prometheus/tests/${file}`);
  if (spelling === 'scraped') return original;
  const text = readFileSync(original, 'utf8').replace(
    /^( {2}- )(\.\.\/rules\/.+)$/gm,
    (_, item: string, path: string) => `${item}${resolve(dirname(original), path)}`,
  );
  const copy = join(copies, file);
  writeFileSync(copy, asPushed(text));
  return copy;
}
const SPELLINGS = ['scraped', 'pushed'] as const;

describe.each(promtools)('$label', ({ gate: promtool }) => {
  it('accepts the stack Prometheus configuration and the rules file it loads', async (ctx) => {
    const bin = promtool.path ?? skipOrFail(ctx, promtool);
    const result = await runCommand(bin, ['check', 'config', observability('prometheus/prometheus.yml')]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // the config loads the rules relative to itself: the rules files were found and checked too
    expect(result.stdout).toContain('2 rule files found');
    expect(result.stdout).toContain('SUCCESS: 12 rules found');
    expect(result.stdout).toContain('SUCCESS: 28 rules found');
  });

  it('accepts the alert rules', async (ctx) => {
    const bin = promtool.path ?? skipOrFail(ctx, promtool);
    const result = await runCommand(bin, ['check', 'rules', observability('prometheus/rules/tool-calls.rules.yml')]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('SUCCESS: 12 rules found');
  });

  it('accepts the SLO rules', async (ctx) => {
    const bin = promtool.path ?? skipOrFail(ctx, promtool);
    const result = await runCommand(bin, [
      'check',
      'rules',
      observability('prometheus/rules/tool-calls-slo.rules.yml'),
    ]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('SUCCESS: 28 rules found');
  });

  it.for(SPELLINGS)(
    'passes the SLO burn-rate unit tests: each window row fires on its own burn, model errors and rare tools gated (series %s)',
    { timeout: 120_000 },
    async (spelling, ctx) => {
      const bin = promtool.path ?? skipOrFail(ctx, promtool);
      const result = await runCommand(
        bin,
        ['test', 'rules', rulesTestFile('tool-calls-slo.rules.test.yml', spelling)],
        120_000,
      );
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toContain('SUCCESS');
      expect(result.stdout).not.toContain('FAILED');
      // days of series evaluated every minute against windows up to 3 days: seconds of CPU
    },
  );

  it.for(SPELLINGS)(
    'passes the alert rule unit tests (firing, pending, healthy, low-volume and model error cases; series %s)',
    async (spelling, ctx) => {
      const bin = promtool.path ?? skipOrFail(ctx, promtool);
      const result = await runCommand(bin, ['test', 'rules', rulesTestFile('tool-calls.rules.test.yml', spelling)]);
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toContain('SUCCESS');
      expect(result.stdout).not.toContain('FAILED');
    },
  );
});

describe.each(amtools)('$label', ({ gate: amtool }) => {
  it('accepts the Alertmanager configuration', async (ctx) => {
    const bin = amtool.path ?? skipOrFail(ctx, amtool);
    const result = await runCommand(bin, ['check-config', observability('alertmanager/alertmanager.yml')]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('SUCCESS');
    expect(result.stdout).toContain('2 inhibit rules');
  });

  it('routes a page to the page receiver and a ticket to the ticket receiver', async (ctx) => {
    const bin = amtool.path ?? skipOrFail(ctx, amtool);
    const config = `--config.file=${observability('alertmanager/alertmanager.yml')}`;
    for (const [labels, receiver] of [
      [['alertname=ToolCallErrorRatioHigh', 'severity=page'], 'page'],
      [['alertname=ToolCallLatencyHigh', 'severity=ticket'], 'ticket'],
      [['alertname=ToolCallModelErrorRatioHigh', 'severity=ticket'], 'ticket'],
      [['alertname=ToolCallErrorBudgetFastBurn', 'severity=page', 'slo=availability'], 'page'],
      [['alertname=ToolCallLatencyBudgetFastBurn', 'severity=page', 'slo=latency'], 'page'],
      [['alertname=ToolCallErrorBudgetSlowBurn', 'severity=ticket', 'slo=availability'], 'ticket'],
      [['alertname=ToolCallLatencyBudgetSlowBurn', 'severity=ticket', 'slo=latency'], 'ticket'],
      [['alertname=Other'], 'default'],
    ] as const) {
      const result = await runCommand(bin, ['config', 'routes', 'test', config, ...labels]);
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stdout.trim(), labels.join(' ')).toBe(receiver);
    }
  });
});
