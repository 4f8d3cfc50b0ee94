import type { Subpath } from '../../entry-points.js';
import type { SupportedVersions } from '../internal/version-range.js';

/** A package a framework's zero-code patch instruments, and the versions it supports. */
export interface InstrumentedPackage {
  readonly name: string;
  readonly versions: SupportedVersions;
}

/**
 * What the package wires for one framework, declared once in `src/adapters/<framework>/manifest.ts`.
 * `npm run generate` (scripts/generate-wiring.ts) writes from these records package.json `exports`,
 * tsconfig.json `paths`, src/instrumentation/hooked-files.ts and the README's framework table.
 */
export interface FrameworkManifest {
  /** The adapter's entry point, as declared in entry-points.ts. */
  readonly subpath: Subpath;
  /** The packages the zero-code patch instruments (none: no zero-code patch). */
  readonly packages: readonly InstrumentedPackage[];
  /** The ESM files the zero-code patch hooks (import-in-the-middle's `include`). */
  readonly hookedFiles: readonly RegExp[];
  /** Its page, from the repository root. */
  readonly docs: string;
  /** Its row in the README's framework table. */
  readonly readme: { readonly framework: string; readonly api: string; readonly reportedFailure: string };
}
