// The per-tool summary table: calls, errors by outcome, and latency percentiles from the spans.
import type { ToolCallSample } from './run-recorder.js';

const HEADER = ['tool', 'calls', 'errors reported', 'errors rethrown', 'p50 ms', 'p95 ms', 'p99 ms'] as const;

/** Nearest-rank percentile of ascending `sorted` values (exact: every sample is kept). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

/** Rows sorted by tool name; the name column left-aligned, numbers right-aligned. */
export function formatToolTable(tools: ReadonlyMap<string, ToolCallSample>): string {
  const rows = [...tools]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, { durationsMs, reported, rethrown }]) => {
      const sorted = [...durationsMs].sort((a, b) => a - b);
      const ms = (p: number) => Math.round(percentile(sorted, p)).toString();
      return [name, String(sorted.length), String(reported), String(rethrown), ms(50), ms(95), ms(99)];
    });
  const lines = [[...HEADER], ...rows];
  const widths = HEADER.map((_, column) => Math.max(...lines.map((line) => (line[column] as string).length)));
  const format = (line: string[]) =>
    line
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[0] as number) : cell.padStart(widths[column] as number),
      )
      .join('  ');
  const rule = widths.map((width) => '─'.repeat(width)).join('  ');
  return [format(lines[0] as string[]), rule, ...rows.map(format)].join('\n');
}
