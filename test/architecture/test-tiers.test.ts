import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const vitestCli = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));

/** Every test file under test/, as vitest would name one: `*.test.ts` and the type tests `*.test-d.ts`. */
function testFilesOnDisk(): string[] {
  return readdirSync(`${root}test`, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.test(-d)?\.ts$/.test(file) && !file.split('/').includes('node_modules'))
    .map((file) => `test/${file}`)
    .sort();
}

/** What vitest itself sees in each project of vitest.config.ts: `vitest list`, files only. */
async function filesByProject(): Promise<Map<string, string[]>> {
  const { stdout } = await run(process.execPath, [vitestCli, 'list', '--filesOnly', '--json'], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
  });
  const listed = JSON.parse(stdout) as { file: string; projectName: string }[];
  const projects = new Map<string, string[]>();
  for (const { file, projectName } of listed) {
    const relative = file.slice(root.length);
    projects.set(relative, [...(projects.get(relative) ?? []), projectName]);
  }
  return projects;
}

/** The projects each tier script of package.json runs (`--project <name>`). */
function projectsOfTierScripts(): Record<string, string[]> {
  const { scripts } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string> };
  const tiers = Object.entries(scripts).filter(([name]) =>
    ['test:unit', 'test:zero-code', 'test:stack'].includes(name),
  );
  return Object.fromEntries(
    tiers.map(([name, command]) => [
      name,
      [...command.matchAll(/--project (\S+)/g)].map((match) => match[1] as string),
    ]),
  );
}

describe('test tiers', () => {
  const listing = filesByProject();

  it('puts every test file in exactly one vitest project', async () => {
    const projects = await listing;
    const onDisk = testFilesOnDisk();
    expect(onDisk.length).toBeGreaterThan(100);

    const inNoProject = onDisk.filter((file) => !projects.has(file));
    const inSeveral = onDisk.filter((file) => (projects.get(file)?.length ?? 0) > 1);
    expect({ inNoProject, inSeveral }).toEqual({ inNoProject: [], inSeveral: [] });
    // and vitest runs nothing that is not a test file under test/
    expect([...projects.keys()].sort()).toEqual(onDisk);
  });

  it('runs each project in one tier script: test:unit is core and adapters', async () => {
    const names = [...new Set([...(await listing).values()].flat())].sort();
    const scripts = projectsOfTierScripts();
    expect(scripts).toEqual({
      'test:unit': ['core', 'adapters'],
      'test:zero-code': ['zero-code'],
      'test:stack': ['stack'],
    });
    expect(Object.values(scripts).flat().sort()).toEqual(names);
  });
});
