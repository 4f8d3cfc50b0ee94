/**
 * Where scripts/services.sh puts the binaries it builds: OTEL_TOOL_CALLS_SERVICES_BIN, else
 * `<OTEL_TOOL_CALLS_SERVICES_CACHE or ~/.cache/otel-tool-calls-services>/bin`, as the script computes it.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export function servicesBinDir(): string {
  return (
    process.env.OTEL_TOOL_CALLS_SERVICES_BIN ||
    join(process.env.OTEL_TOOL_CALLS_SERVICES_CACHE || join(homedir(), '.cache', 'otel-tool-calls-services'), 'bin')
  );
}
