import { defineConfig } from 'tsup';
import { distName, ENTRY_POINTS, type Subpath } from './entry-points.js';

export default defineConfig({
  entry: Object.fromEntries(
    Object.entries(ENTRY_POINTS).map(([subpath, source]) => [distName(subpath as Subpath), source]),
  ),
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: true,
  treeshake: true,
  // import.meta.url in the CommonJS build: optional peers are required relative to the package's own files
  shims: true,
  // every package is the app's own copy, never bundled: tsup externalizes only what package.json declares,
  // and it declares no framework or SDK package (design.md §1)
  skipNodeModulesBundle: true,
});
