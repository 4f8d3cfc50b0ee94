/**
 * A CPU profile of the listener's per-call path, for the src side of the performance work:
 *
 *   node --import tsx bench/profile/run.ts [no-sdk|sdk|floor] [--seconds 5] [--top 25]
 *
 * Bundles bench/profile/loop.ts with esbuild as the suites are bundled (see bench/run.ts), runs it
 * under `node --cpu-prof`, and prints the functions with the most self time. The .cpuprofile is
 * kept (its path is printed) for Chrome DevTools or speedscope.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleForNode } from '../lib/bundle.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { seconds: { type: 'string', default: '5' }, top: { type: 'string', default: '25' } },
});
const world = positionals[0] ?? 'no-sdk';
if (!['no-sdk', 'sdk', 'floor'].includes(world)) throw new Error('usage: run.ts [no-sdk|sdk|floor] [--seconds n]');

const dir = mkdtempSync(join(tmpdir(), `otel-tool-calls-profile-${world}-`));
const outfile = join(dir, 'loop.mjs');
await bundleForNode(root, join('bench', 'profile', 'loop.ts'), outfile);
const run = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, outfile, world, values.seconds], {
  stdio: 'inherit',
});
if (run.status !== 0) throw new Error(`the profiled loop exited with ${run.status}`);

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
}
const file = join(dir, readdirSync(dir).find((name) => name.endsWith('.cpuprofile')) as string);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const nodes = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
const self = new Map<string, number>();
for (const id of profile.samples) {
  const frame = nodes.get(id);
  if (!frame) continue;
  // bundled: the file is loop.mjs for everything, so the name and line say where it comes from
  const where = frame.url ? `${frame.url.split('/').pop()}:${frame.lineNumber + 1}` : '';
  const key = `${frame.functionName || '(anonymous)'} ${where}`.trim();
  self.set(key, (self.get(key) ?? 0) + 1);
}
const total = profile.samples.length;
console.log(`${world}: ${total} samples, self time`);
for (const [key, count] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
  console.log(`${((100 * count) / total).toFixed(1).padStart(5)} %  ${key}`);
}
console.log(`\nprofile: ${file}`);
