// The per-tool table of the calls the tools ran: calls, errors by outcome, and exact latency
// percentiles, from the spans.
import type { ToolCallSample } from './run-recorder.js';
import { formatTextTable } from './text-table.js';

const HEADER = ['tool', 'calls', 'errors reported', 'errors rethrown', 'p50 ms', 'p95 ms', 'p99 ms'] as const;

/** Nearest-rank percentile of ascending `sorted` values (exact: every sample is kept). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

/** Rows sorted by tool name. */
export function formatToolTable(tools: ReadonlyMap<string, ToolCallSample>): string {
  const rows = [...tools]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, { durationsMs, reported, rethrown }]) => {
      const sorted = [...durationsMs].sort((a, b) => a - b);
      const ms = (p: number) => Math.round(percentile(sorted, p)).toString();
      return [name, String(sorted.length), String(reported), String(rethrown), ms(50), ms(95), ms(99)];
    });
  return formatTextTable(HEADER, rows);
}
