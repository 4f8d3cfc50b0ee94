import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENTRY_POINTS } from '../../entry-points.js';
import { wiringFiles } from '../../scripts/generate-wiring.js';
import { FRAMEWORK_MANIFESTS } from '../../src/adapters/manifests.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('the wiring generated from entry-points.ts and the framework records', () => {
  it.each(Object.entries(wiringFiles()))(
    'generating changes nothing in %s (run `npm run generate`)',
    (path, content) => {
      expect(read(path)).toBe(content);
    },
  );

  it("each framework's record names an entry point, an existing docs page and a zero-code range per package", () => {
    for (const { subpath, docs, packages } of FRAMEWORK_MANIFESTS) {
      expect(ENTRY_POINTS).toHaveProperty([subpath]);
      expect(() => read(docs)).not.toThrow();
      for (const { versions } of packages) expect(versions.belowMajor).toBeGreaterThan(0);
    }
  });
});
