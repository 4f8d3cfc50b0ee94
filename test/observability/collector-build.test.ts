/**
 * The stack's collector is built with what its configs use and nothing else: every component that
 * observability/collector/*.yaml names is in the Collector Builder's manifest (builder-config.yaml), the
 * binary scripts/services.sh built from it lists each one, and every component of the manifest is used by
 * some config. The configs pass the binary's own `validate`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCommand, skipOrFail } from '../helpers/prometheus.js';
import { serviceGate } from '../helpers/service-binaries.js';

const collectorDir = fileURLToPath(new URL('../../observability/collector/', import.meta.url));
const KINDS = ['receivers', 'processors', 'exporters', 'extensions', 'connectors'] as const;
type Kind = (typeof KINDS)[number];

/** The component types (`otlp`, `tail_sampling`) each collector config names, by kind; `otlp/traces` is `otlp`. */
function typesUsed(): Record<Kind, Set<string>> {
  const used = Object.fromEntries(KINDS.map((kind) => [kind, new Set<string>()])) as Record<Kind, Set<string>>;
  for (const file of configFiles()) {
    const config = parse(readFileSync(join(collectorDir, file), 'utf8')) as Partial<Record<Kind, object>>;
    for (const kind of KINDS) {
      for (const id of Object.keys(config[kind] ?? {})) used[kind].add(id.split('/')[0]!);
    }
  }
  return used;
}

function configFiles(): string[] {
  return readdirSync(collectorDir).filter((file) => file.endsWith('.yaml') && file !== 'builder-config.yaml');
}

/** The Go module of each component in the manifest, by kind. */
const manifest = parse(readFileSync(join(collectorDir, 'builder-config.yaml'), 'utf8')) as Partial<
  Record<Kind, Array<{ gomod: string }>>
>;

/** `.../processor/tailsamplingprocessor v0.140.1` → `tailsamplingprocessor`; `.../storage/filestorage` → `filestorage`. */
const moduleName = (gomod: string) => gomod.split(' ')[0]!.split('/').at(-1)!;

/** The module name a component type is built from (the Go convention: the type, underscores out, and the kind). */
function moduleOf(kind: Kind, type: string): string {
  const bare = type.replaceAll('_', '');
  if (kind === 'extensions' && type === 'file_storage') return 'filestorage';
  return `${bare}${kind.slice(0, -1)}`;
}

const collector = serviceGate('otelcol-tool-calls');

describe('the stack collector build (observability/collector/builder-config.yaml)', () => {
  it('has every component the collector configs name, and none they do not', () => {
    const used = typesUsed();
    for (const kind of KINDS) {
      const built = new Set((manifest[kind] ?? []).map((entry) => moduleName(entry.gomod)));
      const needed = new Set([...used[kind]].map((type) => moduleOf(kind, type)));
      expect(
        [...needed].filter((name) => !built.has(name)),
        `${kind} used but not built`,
      ).toEqual([]);
      expect(
        [...built].filter((name) => !needed.has(name)),
        `${kind} built but not used`,
      ).toEqual([]);
    }
  });

  it('pins every module to one release (contrib v0.140.1, the core v0.140.0), the line Jaeger 2.13 is built on', () => {
    const versions = KINDS.flatMap((kind) => manifest[kind] ?? []).map((entry) => entry.gomod.split(' ')[1]);
    expect(new Set(versions)).toEqual(new Set(['v0.140.1', 'v0.140.0']));
  });

  it.for(['config.yaml', 'gateway.yaml'])('the built collector validates %s', async (file, ctx) => {
    const binary = collector.path ?? skipOrFail(ctx, collector);
    const result = await runCommand(binary, ['validate', `--config=${join(collectorDir, file)}`]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });

  it('the built collector lists each component of the manifest', async (ctx) => {
    const binary = collector.path ?? skipOrFail(ctx, collector);
    const listed = (await runCommand(binary, ['components'])).stdout;
    for (const kind of KINDS) {
      for (const { gomod } of manifest[kind] ?? []) expect(listed).toContain(`module: ${gomod}`);
    }
  });
});
