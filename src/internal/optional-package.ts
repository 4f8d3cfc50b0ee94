import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { declaredRange, isSupported, type SupportedVersions } from './version-range.js';

// Resolved from this file, as an import would be: the app's own copy of each peer.
const requireHere = createRequire(import.meta.url);

/**
 * The versions of each OpenTelemetry SDK package this package works with. package.json declares
 * these peers with no range (`*`): an app that has another line installed (Genkit 1.x brings
 * `sdk-node` 0.52 and `context-async-hooks` 1.25, hoisted to the app's node_modules) must still be
 * able to install this package without `--legacy-peer-deps`, and only the options that load one of
 * them need a supported version. The range is checked when the package is loaded, instead.
 */
const SUPPORTED_VERSIONS: Readonly<Record<string, SupportedVersions>> = {
  '@opentelemetry/context-async-hooks': { from: '2.0.0', belowMajor: 4 },
  '@opentelemetry/exporter-metrics-otlp-http': { from: '0.200.0', belowMajor: 1 },
  '@opentelemetry/exporter-prometheus': { from: '0.200.0', belowMajor: 1 },
  '@opentelemetry/exporter-trace-otlp-http': { from: '0.200.0', belowMajor: 1 },
  '@opentelemetry/instrumentation': { from: '0.200.0', belowMajor: 1 },
  '@opentelemetry/resources': { from: '2.0.0', belowMajor: 4 },
  '@opentelemetry/sdk-metrics': { from: '2.0.0', belowMajor: 4 },
  '@opentelemetry/sdk-node': { from: '0.200.0', belowMajor: 1 },
  '@opentelemetry/sdk-trace': { from: '2.9.0', belowMajor: 4 },
};

/** The range of an optional OpenTelemetry package, as the error and the docs print it (`>=0.200.0 <1`). */
export function supportedRange(name: string): string | undefined {
  const supported = SUPPORTED_VERSIONS[name];
  return supported === undefined ? undefined : declaredRange(supported);
}

/**
 * The versions to install on the running Node: the OpenTelemetry JS SDK 3.x line (exporters 0.30x)
 * needs Node 22.15; on Node 20 npm would install it and fail, or pick the 2.x line that goes with
 * `@opentelemetry/api` 1.9.
 */
function sdkVersion(name: string): string {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const sdk3 = major > 22 || (major === 22 && minor >= 15);
  const experimental = /^@opentelemetry\/(sdk-node|exporter-|instrumentation)/.test(name);
  if (sdk3) return experimental ? '0.301.0' : '3.1.0';
  return experimental ? '0.223.0' : '2.12.0';
}

/**
 * Loads an optional peer when an option needs it, not when the entry point is imported. A missing
 * package, or one outside its supported range, is an Error that names it, what needs it, the range
 * and the command that installs a supported version.
 *
 * `via`: a package whose own dependency `name` is, loaded as `via` would load it (its copy, where
 * `via` is installed), without loading `via` itself: register starts the parts of the SDK that
 * `@opentelemetry/sdk-node` depends on, not sdk-node.
 */
export function loadOptionalPackage<Module>(name: string, neededFor: string, via?: string): Module {
  const from = via === undefined ? requireHere : createRequire(attempt(via, neededFor, requireHere.resolve));
  const loaded = attempt(name, neededFor, from) as Module;
  assertSupportedVersion(name, neededFor, from.resolve);
  return loaded;
}

function attempt<Result>(name: string, neededFor: string, load: (name: string) => Result): Result {
  try {
    return load(name);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== 'MODULE_NOT_FOUND' || !String((error as Error).message).includes(`'${name}'`)) throw error;
    throw new Error(
      `otel-tool-calls: ${neededFor} needs the package ${name}, which is not installed. ` +
        `Install it with: npm install -E ${name}@${sdkVersion(name)}`,
      { cause: error },
    );
  }
}

/**
 * Checks that the copy of `name` this package resolves is in its supported range, for a package
 * that is imported statically (`@opentelemetry/instrumentation`, by the instrumentation): the same
 * error as `loadOptionalPackage`'s, at the first use instead of at the import.
 */
export function assertSupportedVersion(
  name: string,
  neededFor: string,
  resolve: (name: string) => string = requireHere.resolve,
): void {
  const supported = SUPPORTED_VERSIONS[name];
  if (supported === undefined) return;
  const version = installedVersion(name, resolve);
  // a version that cannot be read (a bundled copy) is not held against the app
  if (version === undefined || isSupported(version, supported)) return;
  throw new Error(
    `otel-tool-calls: ${neededFor} needs ${name} ${declaredRange(supported)}, but ${name} ${version} is the ` +
      `installed copy (another package may have brought it: Genkit 1.x depends on the SDK 1.x line). ` +
      `Install a supported one with: npm install -E ${name}@${sdkVersion(name)}`,
  );
}

/**
 * The version of the copy of `name` that `require` resolves: the `package.json` named `name` in the
 * folders above its entry file (read from disk, so that an `exports` map without `./package.json`
 * does not hide it).
 */
function installedVersion(name: string, resolve: (name: string) => string): string | undefined {
  try {
    let dir = dirname(resolve(name));
    for (let parent = dirname(dir); parent !== dir; dir = parent, parent = dirname(dir)) {
      const manifest = readManifest(join(dir, 'package.json'));
      if (manifest?.name === name) return typeof manifest.version === 'string' ? manifest.version : undefined;
    }
  } catch {
    // not resolvable here: nothing to check
  }
  return undefined;
}

function readManifest(path: string): { name?: unknown; version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}
