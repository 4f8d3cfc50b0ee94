import type { AllocationRow } from './allocation.js';
import type { Measured } from './measure.js';

/** The measured rows compared within their process: what the table prints and the JSON report keeps. */

/** A measured row with its comparisons, as printed and as written to the JSON report. */
export interface ReportRow extends Measured {
  /** × the bare tool of the same process, tool kind and calls in flight. */
  readonly vsBare: number;
  /** ns per call over that bare tool. */
  readonly overBareNs: number;
  /** × the hand-written floor of the same process, tool kind and calls in flight (the processes with a floor: sdk, peers). */
  readonly vsFloor: number | null;
}

/** An allocation row with what it adds over the bare tool of its process. */
export interface AllocationReportRow extends AllocationRow {
  readonly overBareBytes: number;
}

const GROUP_ORDER = ['overhead', 'scaling', 'capture', 'composite', 'signals', 'peers', 'loader'];
const PROCESS_ORDER = ['no-sdk', 'sdk', 'capture', 'peers', 'loader-tsx', 'loader-compiled'];

/** Ratios only compare rows of one process (its world registered once, its own GC and JIT). */
export function compare(measured: readonly Measured[]): ReportRow[] {
  const find = (row: Measured, kind: string) =>
    measured.find(
      (other) =>
        other.process === row.process &&
        other.tool === row.tool &&
        other.inFlight === row.inFlight &&
        other.kind === kind,
    );
  const rows = measured.map((row) => {
    const bare = find(row, 'bare');
    const floor = find(row, 'floor');
    return {
      ...row,
      vsBare: bare ? row.nsPerCall / bare.nsPerCall : Number.NaN,
      overBareNs: bare ? row.nsPerCall - bare.nsPerCall : Number.NaN,
      vsFloor: floor ? row.nsPerCall / floor.nsPerCall : null,
    };
  });
  const rank = (row: ReportRow) =>
    GROUP_ORDER.indexOf(row.group) * 1e9 +
    PROCESS_ORDER.indexOf(row.process) * 1e8 +
    (row.tool === 'sync' ? 0 : 1) * 1e7 +
    row.inFlight;
  // a stable sort: within a group, world and tool, the cases keep the order they were defined in
  return rows.sort((a, b) => rank(a) - rank(b));
}

/** Each allocation row with what it allocates over the bare tool of the same process and tool kind. */
export function compareAllocations(rows: readonly AllocationRow[]): AllocationReportRow[] {
  return rows.map((allocation) => {
    const bare = rows.find(
      (other) => other.process === allocation.process && other.tool === allocation.tool && other.kind === 'bare',
    );
    return { ...allocation, overBareBytes: bare ? allocation.bytesPerCall - bare.bytesPerCall : Number.NaN };
  });
}
