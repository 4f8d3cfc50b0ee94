import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { distName, ENTRY_POINTS, type Subpath, specifier } from '../../entry-points.js';
import { VERSION } from '../../src/version.js';

const readJson = (path: string) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'));
const packageJson = readJson('package.json');
const subpaths = Object.keys(ENTRY_POINTS) as Subpath[];

describe('entry points, declared once in entry-points.ts', () => {
  it('package.json `exports` lists each entry point (types first, ESM and CJS) and nothing else', () => {
    const expected: Record<string, unknown> = { './package.json': './package.json' };
    for (const subpath of subpaths) {
      const name = distName(subpath);
      expected[subpath] = {
        import: { types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` },
        require: { types: `./dist/${name}.d.cts`, default: `./dist/${name}.cjs` },
      };
    }
    expect(packageJson.exports).toEqual(expected);
    // key order matters to resolvers: `types` before `default`
    for (const subpath of subpaths)
      expect(Object.keys(packageJson.exports[subpath].import)).toEqual(['types', 'default']);
  });

  it('tsconfig.json `paths` maps each specifier to its source and nothing else', () => {
    const { paths } = readJson('tsconfig.json').compilerOptions;
    expect(paths).toEqual(
      Object.fromEntries(subpaths.map((subpath) => [specifier(subpath), [`./${ENTRY_POINTS[subpath]}`]])),
    );
  });

  it('every source file exists', () => {
    for (const source of Object.values(ENTRY_POINTS)) {
      expect(() => readFileSync(new URL(`../../${source}`, import.meta.url))).not.toThrow();
    }
  });
});

describe('src/version.ts', () => {
  it("is the package.json version (the instrumentation scope's version)", () => {
    expect(VERSION).toBe(packageJson.version);
  });
});
