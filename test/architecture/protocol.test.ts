import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as protocol from '../../src/internal/protocol.js';

/*
 * Every key shared between copies of the package is declared once, in src/internal/protocol.ts, with
 * its owner, readers, value and cleanup rule: a registered key written anywhere else is a side channel
 * nobody declared. OpenTelemetry's own globals (`opentelemetry.js.api.1`, and `io.opentelemetry.js.api.logs` of
 * `@opentelemetry/api-logs`) are the APIs', not ours.
 */

const SRC = join(dirname(fileURLToPath(import.meta.url)), '../../src');
const PROTOCOL_FILE = 'internal/protocol.ts';
const OPENTELEMETRY_OWN_KEYS = new Set(['opentelemetry.js.api.1', 'io.opentelemetry.js.api.logs']);

function sourceFiles(folder = SRC): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(SRC, path).split('\\').join('/')] : [];
  });
}

/** The registered keys a file creates from a literal: `Symbol.for('…')`, `createContextKey('…')`. */
function literalKeysOf(file: string): string[] {
  const code = readFileSync(join(SRC, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  return [...code.matchAll(/\b(?:Symbol\.for|createContextKey)\(\s*(['"`])([^'"`]+)\1/g)].map(
    (match) => match[2] as string,
  );
}

describe('the internal protocol', () => {
  it('no file but protocol.ts creates a registered key of the package from a literal', () => {
    const undeclared = sourceFiles()
      .filter((file) => file !== PROTOCOL_FILE)
      .flatMap((file) => literalKeysOf(file).map((key) => `${file}: ${key}`))
      .filter((entry) => !OPENTELEMETRY_OWN_KEYS.has(entry.slice(entry.indexOf(': ') + 2)));
    expect(undeclared).toEqual([]);
  });

  it('declares each key once, under the package prefix, with a version', () => {
    const keys = literalKeysOf(PROTOCOL_FILE);
    const descriptions = (Object.values(protocol) as unknown[]).filter(
      (value): value is string => typeof value === 'string',
    );
    expect(keys.length).toBeGreaterThan(0);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of [...keys, ...descriptions]) expect(key).toMatch(/^otel-tool-calls[. ]/);
    expect(protocol.PROTOCOL_VERSION).toEqual(expect.any(Number));
  });
});
