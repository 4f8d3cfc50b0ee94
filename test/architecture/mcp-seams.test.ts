import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * MCP through two seams (issue 39): the SDK's objects are read and patched in protocol-seam.ts (what a
 * Client and a low-level Server share), server-seam.ts (McpServer) and client-seam.ts (Client) only,
 * and the differences between the 1.x and 2.x lines live there too; the other modules subscribe.
 */

const MCP = join(dirname(fileURLToPath(import.meta.url)), '../../src/adapters/mcp');
const SEAMS = new Set(['protocol-seam.ts', 'server-seam.ts', 'client-seam.ts']);
/** The zero-code patch installs its prototype hooks through the instrumentation's wrap (so that disable() undoes them). */
const PROTOTYPE_PATCH = 'zero-code.ts';

/** A file's code without its comments. */
function codeOf(file: string): string {
  return readFileSync(join(MCP, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/\s\/\/ .*$/gm, '');
}

const others = readdirSync(MCP).filter((file) => file.endsWith('.ts') && !SEAMS.has(file));

/** `._member`, `'_member'`, `_member?:` / `_member:` (a declared field): a private member of an SDK object. */
function privateMembersNamed(code: string): string[] {
  const names = [...code.matchAll(/(?:\.|['"]|^\s*)(_[a-z][A-Za-z]+)(?=['"]|\??:|\b)/gm)].map(
    (match) => match[1] as string,
  );
  // `_meta` is MCP's own public field of a request's params
  return names.filter((name) => name !== '_meta');
}

describe('MCP through two seams', () => {
  it('no module but the seams names a private member of the SDK', () => {
    const named = others.flatMap((file) => privateMembersNamed(codeOf(file)).map((name) => `${file}: ${name}`));
    expect(named).toEqual([]);
  });

  it('no module but the seams defines a property on an object it was handed', () => {
    const defining = others.filter((file) => file !== PROTOTYPE_PATCH && /Object\.defineProperty\(/.test(codeOf(file)));
    expect(defining).toEqual([]);
  });

  it('the differences between the SDK lines (2.x ctx.mcpReq, RegisteredTool.executor, the negotiated-version getter) are read in the seams only', () => {
    const lineSpecific = /\bmcpReq\b|\bexecutor\b|getNegotiatedProtocolVersion|registerToolTask/;
    const reading = others.filter((file) => lineSpecific.test(codeOf(file)));
    expect(reading).toEqual([]);
  });

  it('the seams exist and each says what it owns', () => {
    for (const seam of SEAMS)
      expect(readFileSync(join(MCP, seam), 'utf8')).toMatch(/^\/\*\n \* Where this package reaches into/m);
  });
});
