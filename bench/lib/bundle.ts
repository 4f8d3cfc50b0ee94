import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * Bundles a bench entry into one ESM file as tsup bundles the package (no `keepNames`): what is
 * timed or profiled is the code users run, not tsx's output.
 */
export async function bundleForNode(root: string, entry: string, outfile: string): Promise<string> {
  await build({
    entryPoints: [join(root, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'warning',
    // the bundled CommonJS dependencies call require() for Node's own modules
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  return outfile;
}
