/**
 * The stack's Prometheus and Alertmanager configuration passes the official checkers, and the alert
 * rules pass their promtool unit tests (observability/prometheus/tests/): firing for a failing or slow
 * busy tool, silent for healthy tools and for tools with too few calls; calls the model got wrong (rejected
 * before the tool ran) raise a ticket of their own, never the tool's page, and stay out of its latency. On each promtool/amtool there is:
 * the ones scripts/services.sh builds (Prometheus 3, the stack's), and Debian's (2.42) while it is cheap.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCommand, skipOrFail } from '../helpers/prometheus.js';
import { binaryRows } from '../helpers/service-binaries.js';

const observability = (path: string) => fileURLToPath(new URL(`../../observability/${path}`, import.meta.url));
const promtools = binaryRows('promtool', { binary: 'promtool', package: 'prometheus' });
const amtools = binaryRows('amtool', { binary: 'amtool', package: 'prometheus-alertmanager' });

describe.each(promtools)('$label', ({ gate: promtool }) => {
  it('accepts the stack Prometheus configuration and the rules file it loads', async (ctx) => {
    const bin = promtool.path ?? skipOrFail(ctx, promtool);
    const result = await runCommand(bin, ['check', 'config', observability('prometheus/prometheus.yml')]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // the config loads the rules relative to itself: the rules files were found and checked too
    expect(result.stdout).toContain('2 rule files found');
    expect(result.stdout).toContain('SUCCESS: 11 rules found');
    expect(result.stdout).toContain('SUCCESS: 28 rules found');
  });

  it('accepts the alert rules', async (ctx) => {
    const bin = promtool.path ?? skipOrFail(ctx, promtool);
    const result = await runCommand(bin, ['check', 'rules', observability('prometheus/rules/tool-calls.rules.yml')]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('SUCCESS: 11 rules found');
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

  it('passes the SLO burn-rate unit tests: each window row fires on its own burn, model errors and rare tools gated', async (ctx) => {
    const bin = promtool.path ?? skipOrFail(ctx, promtool);
    const result = await runCommand(
      bin,
      ['test', 'rules', observability('prometheus/tests/tool-calls-slo.rules.test.yml')],
      120_000,
    );
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('SUCCESS');
    expect(result.stdout).not.toContain('FAILED');
    // days of series evaluated every minute against windows up to 3 days: seconds of CPU
  }, 120_000);

  it('passes the alert rule unit tests (firing, pending, healthy, low-volume and model error cases)', async (ctx) => {
    const bin = promtool.path ?? skipOrFail(ctx, promtool);
    const result = await runCommand(bin, [
      'test',
      'rules',
      observability('prometheus/tests/tool-calls.rules.test.yml'),
    ]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('SUCCESS');
    expect(result.stdout).not.toContain('FAILED');
  });
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
