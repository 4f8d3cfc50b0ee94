/**
 * A collector's own metrics (its Prometheus endpoint, `service.telemetry.metrics`), read as sums: the counters
 * that tell what it accepted, refused, decided, sent and dropped, and the gauges of its process.
 */

/** The sum of the samples of a metric (`name` or `name_total`) whose labels include `labels`. */
export type MetricSum = (name: string, labels?: Readonly<Record<string, string>>) => number;

const SAMPLE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

export function parseMetrics(text: string): MetricSum {
  const samples: Array<{ name: string; labels: Record<string, string>; value: number }> = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) labels[key as string] = value as string;
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return (name, wanted = {}) =>
    samples
      .filter((sample) => sample.name === name || sample.name === `${name}_total`)
      .filter((sample) => Object.entries(wanted).every(([key, value]) => sample.labels[key] === value))
      .reduce((sum, sample) => sum + sample.value, 0);
}

export async function scrapeMetrics(url: string): Promise<MetricSum> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return parseMetrics(await response.text());
}
