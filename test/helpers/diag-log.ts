import { DiagLogLevel, diag } from '@opentelemetry/api';
import { afterEach, beforeEach } from 'vitest';

/**
 * Collects what is logged through `diag` at warn level and above, each test starting empty (the
 * returned array is cleared in place), and unregisters the logger after each test.
 */
export function useDiagLog(): string[] {
  const logged: string[] = [];
  beforeEach(() => {
    logged.length = 0;
    const log = (...args: unknown[]) => void logged.push(args.map(String).join(' '));
    diag.setLogger({ error: log, warn: log, info: () => {}, debug: () => {}, verbose: () => {} }, DiagLogLevel.WARN);
  });
  afterEach(() => {
    diag.disable();
  });
  return logged;
}
