/**
 * The stack's Prometheus and Alertmanager configuration passes the official checkers, and the alert
 * rules pass their promtool unit tests (observability/prometheus/tests/): firing for a failing or slow
 * busy tool, silent for healthy tools and for tools with too few calls.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { binaryGate, runCommand, skipOrFail } from '../helpers/prometheus.js';

const observability = (path: string) => fileURLToPath(new URL(`../../observability/${path}`, import.meta.url));
const promtool = binaryGate('promtool', 'prometheus');
const amtool = binaryGate('amtool', 'prometheus-alertmanager');

describe('promtool and amtool', () => {
  it('accepts the stack Prometheus configuration and the rules file it loads', async (ctx) => {
    const bin = promtool.path ?? skipOrFail(ctx, promtool);
    const result = await runCommand(bin, ['check', 'config', observability('prometheus/prometheus.yml')]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // the config loads the rules relative to itself: the rules file was found and checked too
    expect(result.stdout).toContain('1 rule files found');
    expect(result.stdout).toContain('SUCCESS: 5 rules found');
  });

  it('accepts the alert rules', async (ctx) => {
    const bin = promtool.path ?? skipOrFail(ctx, promtool);
    const result = await runCommand(bin, ['check', 'rules', observability('prometheus/rules/tool-calls.rules.yml')]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('SUCCESS: 5 rules found');
  });

  it('passes the alert rule unit tests (firing, pending, healthy and low-volume cases)', async (ctx) => {
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

  it('accepts the Alertmanager configuration', async (ctx) => {
    const bin = amtool.path ?? skipOrFail(ctx, amtool);
    const result = await runCommand(bin, ['check-config', observability('alertmanager/alertmanager.yml')]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('SUCCESS');
    expect(result.stdout).toContain('1 inhibit rules');
  });
});
