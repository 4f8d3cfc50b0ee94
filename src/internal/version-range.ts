import type { DiagLogger } from '@opentelemetry/api';

/** A framework's supported versions: from `from` (inclusive) to the major `belowMajor` (exclusive). */
export interface SupportedVersions {
  readonly from: string;
  readonly belowMajor: number;
}

/** The range as `InstrumentationNodeModuleDefinition` declares it, e.g. `>=6.0.0 <8`. */
export function declaredRange({ from, belowMajor }: SupportedVersions): string {
  return `>=${from} <${belowMajor}`;
}

const numbers = (version: string) => version.split(/[.+-]/, 3).map(Number);

/** Whether `version` is in the range (a prerelease counts as its release). */
export function isSupported(version: string | undefined, { from, belowMajor }: SupportedVersions): boolean {
  if (version === undefined) return false;
  const [major = Number.NaN, minor = 0, patch = 0] = numbers(version);
  const [fromMajor = 0, fromMinor = 0, fromPatch = 0] = numbers(from);
  if (!Number.isFinite(major) || major >= belowMajor) return false;
  if (major !== fromMajor) return major > fromMajor;
  if (minor !== fromMinor) return minor > fromMinor;
  return patch >= fromPatch;
}

/**
 * Says once per module, through `diag`, that a loaded framework version is outside the declared
 * range and is left alone (InstrumentationBase skips it silently), and how to install a supported one.
 * The frameworks are in no dependency field of package.json (design.md §1): these ranges, declared
 * in each framework's record (src/adapters/<framework>/manifest.ts), are the only place they are checked.
 */
export function noticeUnsupported(
  logger: DiagLogger,
  name: string,
  supported: SupportedVersions,
): (exports: unknown, version?: string) => unknown {
  let told = false;
  return (exports, version) => {
    if (!told && !isSupported(version, supported)) {
      told = true;
      logger.warn(
        `${name} ${version ?? '(unknown version)'} is outside the supported range ${declaredRange(supported)}: ` +
          `its tool calls are not observed (install a supported one: npm install "${name}@${declaredRange(supported)}")`,
      );
    }
    return exports;
  };
}
