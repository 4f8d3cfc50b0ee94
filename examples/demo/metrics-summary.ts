// What the run recorded in its metrics, read back from its own Prometheus endpoint as Prometheus scrapes
// it: per tool, the calls, the errors by outcome, the calls the model got wrong, and the p95 latency as
// the dashboard computes it (histogram_quantile over the buckets of the calls the tool ran).
import { formatTextTable } from './text-table.js';

export interface ToolMetrics {
  /** `gen_ai_execute_tool_duration_count`: every call, the model's wrong ones included. */
  calls: number;
  /** `tool_call_errors_total` by `tool_call_error_outcome`. */
  reported: number;
  rethrown: number;
  /** `tool_call_errors_total{tool_call_error_source="model"}`: also among `reported`/`rethrown`. */
  wrongByModel: number;
  /** Cumulative bucket counts by upper bound (`le`), of the calls the tool ran. */
  readonly buckets: Map<number, number>;
}

/** The text the endpoint serves; a line saying why when it cannot be read (the summary goes on without it). */
export async function scrapeMetrics(url: string): Promise<string | Error> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    if (!response.ok) return new Error(`HTTP ${response.status}`);
    return await response.text();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

const SAMPLE = /^(\w+)\{(.*)\} (\S+)$/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

/** The Prometheus text format of the endpoint, by tool (`gen_ai_tool_name`; `_unknown` for the tools the app does not have). */
export function parseToolMetrics(text: string): Map<string, ToolMetrics> {
  const tools = new Map<string, ToolMetrics>();
  for (const line of text.split('\n')) {
    const [, name, labelText = '', valueText] = SAMPLE.exec(line) ?? [];
    if (name === undefined) continue;
    const labels = Object.fromEntries([...labelText.matchAll(LABEL)].map(([, key, value]) => [key, value]));
    const tool = labels.gen_ai_tool_name;
    if (tool === undefined) continue;
    let metrics = tools.get(tool);
    if (!metrics) {
      metrics = { calls: 0, reported: 0, rethrown: 0, wrongByModel: 0, buckets: new Map() };
      tools.set(tool, metrics);
    }
    const value = Number(valueText);
    const byModel = labels.tool_call_error_source === 'model';
    if (name === 'gen_ai_execute_tool_duration_count') metrics.calls += value;
    if (name === 'gen_ai_execute_tool_duration_bucket' && !byModel) {
      const le = labels.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(labels.le);
      metrics.buckets.set(le, (metrics.buckets.get(le) ?? 0) + value);
    }
    if (name === 'tool_call_errors_total') {
      if (labels.tool_call_error_outcome === 'reported') metrics.reported += value;
      if (labels.tool_call_error_outcome === 'rethrown') metrics.rethrown += value;
      if (byModel) metrics.wrongByModel += value;
    }
  }
  return tools;
}

/**
 * The q-quantile of cumulative buckets, as Prometheus's histogram_quantile computes it: linear within the
 * bucket the rank falls in; the highest finite bound when it falls in +Inf; undefined with no sample.
 */
export function histogramQuantile(q: number, buckets: ReadonlyMap<number, number>): number | undefined {
  const bounds = [...buckets.keys()].sort((a, b) => a - b);
  const total = buckets.get(Number.POSITIVE_INFINITY) ?? 0;
  if (total === 0) return undefined;
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (const upper of bounds) {
    const count = buckets.get(upper) as number;
    if (count >= rank) {
      if (upper === Number.POSITIVE_INFINITY) return lower;
      return lower + ((upper - lower) * (rank - below)) / (count - below);
    }
    lower = upper;
    below = count;
  }
  return lower;
}

const HEADER = ['tool', 'error policy', 'calls', 'errors reported', 'errors rethrown', "model's wrong calls", 'p95 s'];

/** Rows sorted by tool name, with each tool's error policy. */
export function formatToolMetrics(tools: ReadonlyMap<string, ToolMetrics>, policyOf: (tool: string) => string): string {
  const rows = [...tools]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tool, metrics]) => {
      const p95 = histogramQuantile(0.95, metrics.buckets);
      return [
        tool,
        policyOf(tool),
        String(metrics.calls),
        String(metrics.reported),
        String(metrics.rethrown),
        String(metrics.wrongByModel),
        p95 === undefined ? '-' : p95.toFixed(2),
      ];
    });
  return formatTextTable(HEADER, rows, 2);
}
