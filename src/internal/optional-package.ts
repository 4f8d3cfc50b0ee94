import { createRequire } from 'node:module';

// Resolved from this file, as an import would be: the app's own copy of each peer.
const requireHere = createRequire(import.meta.url);

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
 * package is an Error that names it, what needs it, and the command that installs it.
 *
 * `via`: a package whose own dependency `name` is, loaded as `via` would load it (its copy, where
 * `via` is installed), without loading `via` itself: register starts the parts of the SDK that
 * `@opentelemetry/sdk-node` depends on, not sdk-node.
 */
export function loadOptionalPackage<Module>(name: string, neededFor: string, via?: string): Module {
  const from = via === undefined ? requireHere : createRequire(attempt(via, neededFor, requireHere.resolve));
  return attempt(name, neededFor, from) as Module;
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
