/**
 * The stack for a test file: `startStack` (what `npm run stack` runs) on free ports, in a temporary folder,
 * Prometheus' intervals at 1 s and the SLO rules' waits in seconds; skipped (or, under REQUIRE_SERVICES=1,
 * failed) when scripts/services.sh has not built its binaries.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingBinaries, type RunningStack, type StackOptions, startStack } from '../../scripts/stack/stack.js';
import type { BinaryGate } from '../helpers/prometheus.js';
import { servicesBinDir } from '../helpers/service-binaries.js';
import { sloRulesWithShortWaits } from '../helpers/slo-rules-copy.js';

export function stackGate(): BinaryGate {
  const missing = missingBinaries();
  return {
    path: missing.length === 0 ? servicesBinDir : undefined,
    missing: `${missing.join(', ')} not in ${servicesBinDir} (bash scripts/services.sh builds them)`,
  };
}

export interface TestStack extends RunningStack {
  /** Stops it and removes its folder. */
  dispose(): Promise<void>;
}

export async function startTestStack(
  options: Pick<StackOptions, 'appMetricsTargets' | 'samplers' | 'serviceEnv'> = {},
): Promise<TestStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'otel-tool-calls-stack-'));
  const sloRules = join(dataDir, 'tool-calls-slo.rules.yml');
  writeFileSync(sloRules, sloRulesWithShortWaits());
  try {
    const stack = await startStack({
      dataDir,
      ports: 'free',
      interval: '1s',
      ruleFileOverrides: { 'rules/tool-calls-slo.rules.yml': sloRules },
      appMetricsTargets: options.appMetricsTargets ?? [],
      samplers: options.samplers,
      serviceEnv: options.serviceEnv,
    });
    return {
      ...stack,
      dispose: async () => {
        await stack.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
