/**
 * The two spellings of this package's metrics in Prometheus. Scraped from an app's /metrics
 * (exporter-prometheus): `gen_ai_execute_tool_duration_bucket`, `tool_call_result_size_bucket`. Pushed over
 * OTLP, as the collector serves them and Prometheus' OTLP receiver (and hosted backends) store them, with the
 * unit in the name: `gen_ai_execute_tool_duration_seconds_bucket`, `tool_call_result_size_bytes_bucket`. The
 * counters are `*_total` in both. The rules and the dashboard read both; the tests run them on each.
 */

/** The histograms whose pushed name has a unit suffix the scraped one lacks. */
const UNIT_SUFFIXES: Readonly<Record<string, string>> = {
  gen_ai_execute_tool_duration: '_seconds',
  tool_call_result_size: '_bytes',
  tool_call_approval_duration: '_seconds',
};

/** `text` (a promtool test file, a query) with every scraped histogram series name spelled as OTLP spells it. */
export function asPushed(text: string): string {
  let pushed = text;
  for (const [base, unit] of Object.entries(UNIT_SUFFIXES)) {
    pushed = pushed.replace(new RegExp(`\\b${base}_(bucket|count|sum)\\b`, 'g'), `${base}${unit}_$1`);
  }
  return pushed;
}
