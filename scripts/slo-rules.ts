// Writes observability/prometheus/rules/tool-calls-slo.rules.yml from observability/prometheus/slos.yml: the
// tool-call SLOs' recording rules (a burn rate per SLI and window) and their multiwindow, multi-burn-rate
// alerts, so that the objectives and windows live in one place.
//   npx tsx scripts/slo-rules.ts          # writes the rules file
//   npx tsx scripts/slo-rules.ts --check  # exits 1 when the checked-in file is not what slos.yml generates
// test/observability/slo-rules.test.ts runs the same comparison.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const sloConfigFile = fileURLToPath(new URL('../observability/prometheus/slos.yml', import.meta.url));
export const sloRulesFile = fileURLToPath(
  new URL('../observability/prometheus/rules/tool-calls-slo.rules.yml', import.meta.url),
);

export interface BurnRateAlert {
  readonly severity: 'page' | 'ticket';
  readonly long_window: string;
  readonly short_window: string;
  readonly burn_rate: number;
}
export interface SloConfig {
  readonly period: string;
  readonly slos: {
    readonly availability: { readonly objective: number };
    readonly latency: { readonly objective: number; readonly threshold_seconds: number };
  };
  readonly burn_rate_alerts: readonly BurnRateAlert[];
  readonly for: Readonly<Record<'page' | 'ticket', string>>;
  readonly min_calls: number;
}

export function readSloConfig(file = sloConfigFile): SloConfig {
  const config = parse(readFileSync(file, 'utf8')) as SloConfig;
  for (const [name, slo] of Object.entries(config.slos)) {
    if (!(slo.objective > 0 && slo.objective < 1)) throw new TypeError(`${name}: objective must be in (0, 1)`);
  }
  for (const alert of config.burn_rate_alerts) {
    const budget = errorBudget(config.slos.availability.objective);
    if (!(alert.burn_rate > 0)) throw new TypeError(`burn_rate_alerts: burn_rate must be positive`);
    if (alert.burn_rate * budget >= 1) {
      throw new TypeError(`burn rate ${alert.burn_rate} needs more than all the calls to fail: lower it`);
    }
  }
  return config;
}

/** 1 - objective, without the float's tail (1 - 0.99 is 0.010000000000000009). */
function errorBudget(objective: number): number {
  return Number((1 - objective).toPrecision(12));
}

/** `5m` < `30m` < `1h` < `1d`: the windows in order of length. */
function seconds(window: string): number {
  const match = /^(\d+)([mhd])$/.exec(window);
  if (!match) throw new TypeError(`window '${window}': write it as <n>m, <n>h or <n>d`);
  return Number(match[1]) * { m: 60, h: 3600, d: 86400 }[match[2] as 'm' | 'h' | 'd'];
}

const RAN = 'tool_call_error_source!="model"';
/**
 * The call histogram's series as both metric paths spell them: scraped from an app's /metrics
 * (`gen_ai_execute_tool_duration_count`) and pushed over OTLP, through the collector or into Prometheus'
 * OTLP receiver (`gen_ai_execute_tool_duration_seconds_count`, the unit in the name).
 */
const CALLS = '__name__=~"gen_ai_execute_tool_duration(?:_seconds)?_count"';
const BUCKETS = '__name__=~"gen_ai_execute_tool_duration(?:_seconds)?_bucket"';
const BY = 'sum by (job, gen_ai_tool_name)';

const SLIS = {
  availability: {
    alert: 'ToolCallErrorBudget',
    what: 'tool errors',
    // the failed share of the calls the tool ran; 0, not nothing, for a tool that never failed
    badRatio: (window: string) =>
      [
        `(`,
        `  ${BY} (rate(tool_call_errors_total{${RAN}}[${window}]))`,
        `    or on (job, gen_ai_tool_name)`,
        `  0 * ${BY} (rate({${CALLS}, ${RAN}}[${window}]))`,
        `)`,
        `  /`,
        `${BY} (rate({${CALLS}, ${RAN}}[${window}]))`,
      ].join('\n'),
  },
  latency: {
    alert: 'ToolCallLatencyBudget',
    what: 'calls slower than the threshold',
    // the share of the calls the tool ran that took longer than the threshold (a bucket boundary)
    badRatio: (window: string, config: SloConfig) =>
      [
        `(`,
        `  ${BY} (rate({${CALLS}, ${RAN}}[${window}]))`,
        `    -`,
        `  ${BY} (rate({${BUCKETS}, ${RAN}, le="${config.slos.latency.threshold_seconds}"}[${window}]))`,
        `)`,
        `  /`,
        `${BY} (rate({${CALLS}, ${RAN}}[${window}]))`,
      ].join('\n'),
  },
} as const;
type Sli = keyof typeof SLIS;

export const burnRateRecord = (sli: Sli, window: string) => `job_tool:tool_call_slo_${sli}:burn_rate${window}`;
export const callsRanRecord = (window: string) => `job_tool:tool_call_slo_calls_ran:increase${window}`;
export const alertName = (sli: Sli, severity: 'page' | 'ticket') =>
  `${SLIS[sli].alert}${severity === 'page' ? 'FastBurn' : 'SlowBurn'}`;

const indent = (text: string, spaces: number) =>
  text
    .split('\n')
    .map((line) => (line ? ' '.repeat(spaces) + line : line))
    .join('\n');

function record(name: string, expr: string, comment?: string): string {
  return [
    ...(comment ? [`      # ${comment}`] : []),
    `      - record: ${name}`,
    `        expr: |`,
    indent(expr, 10),
  ].join('\n');
}

function objectiveText(sli: Sli, config: SloConfig): string {
  const percent = `${Number((config.slos[sli].objective * 100).toPrecision(12))}%`;
  return sli === 'availability'
    ? `${percent} of the calls the tool runs succeed`
    : `${percent} of the calls the tool runs take at most ${config.slos.latency.threshold_seconds} s`;
}

function alertRule(sli: Sli, alert: BurnRateAlert, config: SloConfig): string {
  const { long_window: long, short_window: short, burn_rate: rate, severity } = alert;
  const budget = errorBudget(config.slos[sli].objective);
  const share = Number(((rate * seconds(long)) / seconds(config.period)) * 100).toPrecision(3);
  const expr = [
    `${burnRateRecord(sli, long)} > ${rate}`,
    `  and on (job, gen_ai_tool_name)`,
    `${burnRateRecord(sli, short)} > ${rate}`,
    `  and on (job, gen_ai_tool_name)`,
    `${callsRanRecord(long)} >= ${config.min_calls}`,
  ].join('\n');
  const panel = sli === 'availability' ? 'Error budget left: availability' : 'Error budget left: latency';
  const runbook =
    sli === 'availability'
      ? [
          `1. Open the "Tool calls" dashboard in Grafana, filter on the tool: the "${panel}" and "Burn rate: availability"`,
          `   panels show how much of the ${config.period} budget is gone and how fast it goes; "Top tool error types"`,
          `   and "Tool errors by outcome" show what fails.`,
          `2. Follow the tool's data link to Jaeger (service + gen_ai.tool.name, error=true): the spans' status and`,
          `   exception events say what failed.`,
          `3. A fast burn is an outage of the tool or its dependency: fix or disable the tool. A slow burn is a`,
          `   steady error rate above the objective: a ticket for the tool's owners.`,
        ]
      : [
          `1. Open the "Tool calls" dashboard in Grafana, filter on the tool: "${panel}" and "Burn rate: latency"`,
          `   show the budget of slow calls; "Latency p50 / p95 / p99 by tool" shows whether all calls or a tail slowed.`,
          `2. Follow the tool's data link to Jaeger and sort by duration: the child spans of a slow execute_tool span`,
          `   show where the time goes.`,
          `3. A slow tool stalls the agent's turn: if the dependency cannot be fixed quickly, lower the tool's`,
          `   timeout, so that the agent gets an error instead of waiting.`,
        ];
  return [
    `      - alert: ${alertName(sli, severity)}`,
    `        expr: |`,
    indent(expr, 10),
    `        for: ${config.for[severity]}`,
    `        labels:`,
    `          severity: ${severity}`,
    `          slo: ${sli}`,
    `          long_window: ${long}`,
    `          short_window: ${short}`,
    `        annotations:`,
    `          summary: "Tool {{ $labels.gen_ai_tool_name }} burns its ${sli} error budget ${rate}x as fast as the SLO allows ({{ $labels.job }})"`,
    `          description: >-`,
    `            Over both the last ${long} and the last ${short}, the ${SLIS[sli].what} of tool {{ $labels.gen_ai_tool_name }}`,
    `            in job {{ $labels.job }} spent the error budget at least ${rate} times as fast as the SLO allows (${objectiveText(sli, config)},`,
    `            a budget of ${budget} of them): at that rate ${share}% of the ${config.period} budget goes in ${long}.`,
    `          runbook: >-`,
    ...runbook.map((line) => `            ${line}`),
  ].join('\n');
}

/** The rules file's text for `config`. */
export function sloRules(config: SloConfig): string {
  const windows = [
    ...new Set(config.burn_rate_alerts.flatMap((alert) => [alert.short_window, alert.long_window])),
  ].sort((a, b) => seconds(a) - seconds(b));
  const longWindows = [...new Set(config.burn_rate_alerts.map((alert) => alert.long_window))].sort(
    (a, b) => seconds(a) - seconds(b),
  );
  const slis = Object.keys(SLIS) as Sli[];
  const header = [
    '# GENERATED by scripts/slo-rules.ts from observability/prometheus/slos.yml: edit that file, then run',
    '#   npx tsx scripts/slo-rules.ts',
    '# The tool-call SLOs, per job and tool, as burn rates: the bad share of the calls the tool ran over a',
    '# window, divided by the share the SLO allows (1 - objective). A burn rate of 1 spends the budget in',
    `# exactly the period (${config.period}); "budget left" is 1 - the burn rate over the period.`,
    ...slis.map(
      (sli) => `#   ${sli}: ${objectiveText(sli, config)} (budget ${errorBudget(config.slos[sli].objective)})`,
    ),
    '# Calls the model got wrong (rejected before the tool ran) are left out of both SLIs, as in tool-calls.rules.yml.',
    '# Alerts: both windows of a row of burn_rate_alerts above its rate, with at least',
    `# ${config.min_calls} calls run in the long window; page rows are *FastBurn, ticket rows *SlowBurn.`,
  ];
  const burnRates = slis.flatMap((sli) =>
    windows.map((window, i) =>
      record(
        burnRateRecord(sli, window),
        `(\n${indent(SLIS[sli].badRatio(window, config), 2)}\n)\n  / ${errorBudget(config.slos[sli].objective)}`,
        i === 0 ? `${sli}: ${SLIS[sli].what} / calls run, over the budget's share` : undefined,
      ),
    ),
  );
  const calls = longWindows.map((window, i) =>
    record(
      callsRanRecord(window),
      `${BY} (increase({${CALLS}, ${RAN}}[${window}]))`,
      i === 0 ? "calls run in each long window: the alerts' volume gate" : undefined,
    ),
  );
  const alerts = slis.flatMap((sli) => config.burn_rate_alerts.map((alert) => alertRule(sli, alert, config)));
  const period = slis.map((sli, i) =>
    record(
      burnRateRecord(sli, config.period),
      `(\n${indent(SLIS[sli].badRatio(config.period, config), 2)}\n)\n  / ${errorBudget(config.slos[sli].objective)}`,
      i === 0
        ? `the share of the ${config.period} budget spent (the dashboard's "budget left" is 1 - this)`
        : undefined,
    ),
  );
  return `${[
    ...header,
    'groups:',
    '  - name: tool-calls-slo',
    '    rules:',
    ...burnRates,
    ...calls,
    ...alerts,
    '',
    `  # Over the whole period: read by the dashboard only, and costly (${config.period} of samples), so once a minute.`,
    '  - name: tool-calls-slo-period',
    '    interval: 1m',
    '    rules:',
    ...period,
  ].join('\n')}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = sloRules(readSloConfig());
  if (process.argv.includes('--check')) {
    if (readFileSync(sloRulesFile, 'utf8') !== text) {
      console.error(`${sloRulesFile} is not what slos.yml generates: run npx tsx scripts/slo-rules.ts`);
      process.exit(1);
    }
  } else {
    writeFileSync(sloRulesFile, text);
    console.log(`wrote ${sloRulesFile}`);
  }
}
