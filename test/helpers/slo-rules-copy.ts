/**
 * A test copy of the generated SLO rules (observability/prometheus/rules/tool-calls-slo.rules.yml) with the
 * waits in seconds instead of minutes: `for: 2m`/`15m` become 2 s/15 s and the period group's `interval: 1m`
 * 1 s. Nothing else changes, and it throws when something else would.
 */
import { readFileSync } from 'node:fs';
import { sloRulesFile } from '../../scripts/slo-rules.js';

export function sloRulesWithShortWaits(): string {
  const rules = readFileSync(sloRulesFile, 'utf8');
  const shortened = rules.replace(/^(\s+for: )(\d+)m$/gm, '$1$2s').replace(/^(\s+interval: )1m$/m, '$11s');
  const original = rules.split('\n');
  const changed = [...new Set(shortened.split('\n').filter((line, i) => line !== original[i]))]
    .map((line) => line.trim())
    .sort();
  if (JSON.stringify(changed) !== JSON.stringify(['for: 15s', 'for: 2s', 'interval: 1s'])) {
    throw new Error(`the SLO rules' waits are not the ones this copy shortens: ${JSON.stringify(changed)}`);
  }
  return shortened;
}
