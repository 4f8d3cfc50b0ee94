/** CPU time of this process (user + system, all threads), in ns. */
export function cpuNs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1000;
}

/** CPU ns per call of one batch of `calls` calls. */
export async function cpuNsPerCall(batch: (calls: number) => unknown, calls: number): Promise<number> {
  const begin = cpuNs();
  await batch(calls);
  return (cpuNs() - begin) / calls;
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** The `q` quantile of `values` (linear between the two nearest ranks); NaN for none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  const low = sorted[below] as number;
  return low + ((sorted[above] as number) - low) * (position - below);
}
