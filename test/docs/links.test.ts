/**
 * The user pages (the README, BENCHMARKS.md, docs/, the READMEs of examples/ and observability/) as a reader
 * follows them: every page reachable from the README (a page of docs/ in its index), every relative link
 * leading to a file and, with an anchor, to a heading of it, and no page naming the project's internal
 * issues (a reader cannot open them).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Markdown files under `dir`, relative to the root, node_modules left out. */
function markdownUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : markdownUnder(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const docsPages = markdownUnder('docs');
const userPages = [
  'README.md',
  'BENCHMARKS.md',
  'observability/README.md',
  ...docsPages,
  ...markdownUnder('examples').filter((path) => path.endsWith('README.md')),
];

/** The page without its code blocks. */
function withoutCodeBlocks(page: string): string {
  return readFileSync(join(root, page), 'utf8').replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
}

/** The page without its code blocks and code spans: what is prose and links. */
function prose(page: string): string {
  return withoutCodeBlocks(page).replace(/`[^`\n]*`/g, '');
}

interface Link {
  readonly page: string;
  /** The linked file, relative to the root (the page itself for `#anchor`). */
  readonly target: string;
  readonly anchor: string | undefined;
}

/** The page's relative links (`[text](path#anchor)`), web addresses and mail left out. */
function linksOf(page: string): Link[] {
  return [...prose(page).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] as string)
    .filter((href) => !/^[a-z]+:/i.test(href))
    .map((href) => {
      const [path = '', anchor] = href.split('#');
      return { page, target: path === '' ? page : normalize(join(dirname(page), path)), anchor };
    });
}

/** GitHub's anchors of a page's headings: lowercased, punctuation dropped, spaces as `-`, repeats numbered. */
function anchorsOf(page: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, text = ''] of withoutCodeBlocks(page).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = text
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** The user pages a reader reaches from the README by following links between pages. */
function reachableFromReadme(): Set<string> {
  const reached = new Set(['README.md']);
  const queue = ['README.md'];
  for (let page = queue.shift(); page !== undefined; page = queue.shift()) {
    for (const { target } of linksOf(page)) {
      if (!target.endsWith('.md') || reached.has(target) || !existsSync(join(root, target))) continue;
      reached.add(target);
      queue.push(target);
    }
  }
  return reached;
}

/**
 * How an internal issue is named: "issue 29", "issue #25", "#25", "session 35", or a bracketed label that is
 * not a link ("[mcp-letter]", "[seams]").
 */
const INTERNAL_ISSUE =
  /\bissues? #?\d+|(?:^|[\s(])#\d+\b|\bsessions? \d+|\[[a-z][a-z0-9]*(?:-[a-z0-9]+)*\](?![([:])/gim;

describe('the user pages', () => {
  it('are each reachable from the README through links, every page of docs/ linked from the README itself', () => {
    const reached = reachableFromReadme();
    expect(userPages.filter((page) => !reached.has(page))).toEqual([]);
    const linkedByReadme = new Set(linksOf('README.md').map((link) => link.target));
    expect(docsPages.length).toBeGreaterThan(10);
    expect(docsPages.filter((page) => !linkedByReadme.has(page))).toEqual([]);
  });

  it('link to files that exist, and to headings those pages have', () => {
    const broken = userPages.flatMap(linksOf).flatMap((link) => {
      const where = `${link.page} → ${relative(root, join(root, link.target))}${link.anchor ? `#${link.anchor}` : ''}`;
      if (!existsSync(join(root, link.target))) return [`${where}: no such file`];
      if (link.anchor && link.target.endsWith('.md') && !anchorsOf(link.target).has(link.anchor)) {
        return [`${where}: no such heading`];
      }
      return [];
    });
    expect(broken).toEqual([]);
  });

  it('name no internal issue of the project', () => {
    const named = userPages.flatMap((page) =>
      [...prose(page).matchAll(INTERNAL_ISSUE)].map((match) => `${page}: ${match[0].trim()}`),
    );
    expect(named).toEqual([]);
  });
});
