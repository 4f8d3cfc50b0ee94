/**
 * Where the tests find the servers they run: first the ones that scripts/services.sh builds from source
 * (Jaeger v2, Prometheus 3, Alertmanager, in a cache outside the repo), else Debian's packages on PATH
 * (Prometheus 2.42, Alertmanager 0.25), with a loud message, since those are not what the stack runs.
 * Jaeger has no Debian package: without the built one its tests skip (or fail under REQUIRE_SERVICES=1).
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { servicesBinDir as servicesBinDirOf } from '../../scripts/stack/services-bin.js';
import { type BinaryGate, findBinary } from './prometheus.js';

/** scripts/services.sh's bin directory: OTEL_TOOL_CALLS_SERVICES_BIN, else `<cache>/bin` as the script computes it. */
export const servicesBinDir = servicesBinDirOf();

/** The binary that scripts/services.sh built, if it is there. */
export function builtBinary(name: string): string | undefined {
  const path = join(servicesBinDir, name);
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    return undefined;
  }
}

/** The first line that `<binary> --version` (Jaeger: `jaeger version`) prints on stdout, else on stderr. */
export function versionOf(binary: string): string {
  const args = binary.endsWith('jaeger') ? ['version'] : ['--version'];
  const run = spawnSync(binary, args, { encoding: 'utf8', timeout: 10_000 });
  const firstLine = (text: string | null) => (text ?? '').split('\n').find((line) => line.trim() !== '');
  return firstLine(run.stdout) ?? firstLine(run.stderr) ?? String(run.error ?? `no output from ${binary}`);
}

const warned = new Set<string>();

/** Says once per binary and test file, on stderr, that a test runs on Debian's binary instead of the built one. */
function warnFallback(name: string, debianPath: string): void {
  if (warned.has(name)) return;
  warned.add(name);
  console.warn(
    `\n!!! ${name}: the one built by scripts/services.sh is not in ${servicesBinDir}; falling back to Debian's ${debianPath} ` +
      `(${versionOf(debianPath)}), which is NOT the version the compose stack runs. Run: bash scripts/services.sh\n`,
  );
}

export interface ServiceBinary {
  /** e.g. `prometheus (built, 3.16.0)` or `prometheus (Debian, 2.42.0)`: the test's name says which ran. */
  readonly label: string;
  readonly path: string;
  readonly origin: 'built' | 'debian';
}

/** `prometheus, version 3.16.0 (branch: ...)` → `3.16.0` */
function shortVersion(binary: string): string {
  return /version[":\s]*v?(\d+\.\d+\.\d+)/i.exec(versionOf(binary))?.[1] ?? 'unknown version';
}

/**
 * The binaries a test runs on, the built one first: both when both are there (the Debian 2.42 runs are
 * kept while they are cheap), Debian's alone (with a loud message) when the build is missing, none when
 * neither is installed (`binaryRows` then gives one row whose gate skips or fails).
 */
export function serviceBinaries(name: string, debianName = name): ServiceBinary[] {
  const found: ServiceBinary[] = [];
  const built = builtBinary(name);
  if (built) found.push({ label: `${name} (built, ${shortVersion(built)})`, path: built, origin: 'built' });
  const debian = findBinary(debianName);
  if (debian) {
    if (!built) warnFallback(name, debian);
    found.push({ label: `${debianName} (Debian, ${shortVersion(debian)})`, path: debian, origin: 'debian' });
  }
  return found;
}

/**
 * One gate per binary for `gate.path ?? skipOrFail(ctx, gate)`: the built binary, else Debian's (loudly), else
 * missing, with a message saying how to get either.
 */
export function serviceGate(name: string, debian?: { binary: string; package: string }): BinaryGate {
  const built = builtBinary(name);
  const fallback = debian ? findBinary(debian.binary) : undefined;
  if (!built && fallback) warnFallback(name, fallback);
  const apt = debian ? `, or apt-get install ${debian.package} for Debian's older one` : '';
  return {
    path: built ?? fallback,
    missing: `${name} is not in ${servicesBinDir} (bash scripts/services.sh builds it${apt})`,
  };
}

/**
 * The rows of a `describe.each` over the binaries of `serviceBinaries`, each with its gate; when none is
 * installed, one row whose gate is missing, so that the tests skip (or fail under REQUIRE_SERVICES=1) saying so.
 */
export function binaryRows(
  name: string,
  debian: { binary: string; package: string },
): Array<{ label: string; gate: BinaryGate }> {
  const found = serviceBinaries(name, debian.binary);
  if (found.length > 0)
    return found.map(({ label, path }) => ({ label, gate: { path, missing: `${label} at ${path}` } }));
  return [
    {
      label: name,
      gate: {
        path: undefined,
        missing: `${name} is not in ${servicesBinDir} (bash scripts/services.sh builds it) nor on PATH (apt-get install ${debian.package})`,
      },
    },
  ];
}
