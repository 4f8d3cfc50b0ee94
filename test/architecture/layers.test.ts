import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as frameworks from '../../src/adapters/frameworks.js';
import { ERROR_TYPE_VALUE_TOOL_ERROR } from '../../src/otel/semconv.js';
import { ToolResultError } from '../../src/tool-result-error.js';

/*
 * The layers of src/ (shared/design.md §1), read from the import statements of every file:
 * - otel/ knows OpenTelemetry and its conventions, no framework;
 * - the core files know none of the other layers (index.ts, the public barrel, re-exports them);
 * - internal/ (the call engine) knows the core only.
 */

const SRC = join(dirname(fileURLToPath(import.meta.url)), '../../src');

const CORE_FILES = [
  'tool-call-listener.ts',
  'tool-call-listeners.ts',
  'composite-listener.ts',
  'tool-result-error.ts',
  'tool-callback.ts',
  'remote-call.ts',
];

/** Every `.ts` file of src/, as a path relative to src/ with `/` separators. */
function sourceFiles(folder = SRC): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(SRC, path).split('\\').join('/')] : [];
  });
}

/** The code of a file without its comments (a comment may name anything). */
function codeOf(file: string): string {
  return readFileSync(join(SRC, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** What a file imports or re-exports: static, dynamic and `require`d specifiers. */
function specifiersOf(file: string): string[] {
  const code = codeOf(file);
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) found.push(match[1] as string);
  return found;
}

/** A relative specifier as a path relative to src/ (`otel/semconv.js`); a package's name as it is. */
function resolved(file: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier;
  return posix.normalize(posix.join(posix.dirname(file), specifier));
}

function importsOf(file: string): string[] {
  return specifiersOf(file).map((specifier) => resolved(file, specifier));
}

/** `file imports target` for each import of a file under `folder` that reaches one of `forbidden`. */
function violations(files: readonly string[], forbidden: readonly string[]): string[] {
  return files.flatMap((file) =>
    importsOf(file)
      .filter((target) => forbidden.some((prefix) => target === prefix || target.startsWith(`${prefix}/`)))
      .map((target) => `${file} imports ${target}`),
  );
}

/** The packages of the frameworks the adapters observe, and their names as `ToolCallInfo.framework`. */
const FRAMEWORK_PACKAGES = [
  'ai',
  '@ai-sdk/',
  '@langchain/',
  'langchain',
  '@openai/agents',
  '@anthropic-ai/',
  '@mastra/',
  '@google/adk',
  '@google/genai',
  'llamaindex',
  '@llamaindex/',
  'genkit',
  '@genkit-ai/',
  'openai',
  '@modelcontextprotocol/',
  '@mariozechner/',
  '@openrouter/',
  '@aws-sdk/client-bedrock-agent-runtime',
];

function isFrameworkPackage(specifier: string): boolean {
  return FRAMEWORK_PACKAGES.some((name) =>
    name.endsWith('/') ? specifier.startsWith(name) : specifier === name || specifier.startsWith(`${name}/`),
  );
}

describe('layers of src/', () => {
  const files = sourceFiles();
  const under = (folder: string) => files.filter((file) => file.startsWith(`${folder}/`));

  it('finds the files and their imports (the parser sees what it checks)', () => {
    expect(files).toContain('otel/opentelemetry-tool-call-listener.ts');
    expect(importsOf('tool-call-listeners.ts')).toContain('composite-listener.js');
    expect(importsOf('otel/opentelemetry-tool-call-listener.ts')).toContain('@opentelemetry/api');
  });

  it('otel/ imports nothing from adapters/ or instrumentation/', () => {
    expect(violations(under('otel'), ['adapters', 'instrumentation'])).toEqual([]);
  });

  it('otel/ names no framework: no framework package imported, no framework name in its code', () => {
    // MCP is a protocol whose conventions otel/ records (`mcp.*`): its name is not a framework's here
    const names: string[] = Object.values(frameworks).filter((value) => value !== frameworks.FRAMEWORK_MCP);
    const found = under('otel').flatMap((file) => {
      const code = codeOf(file);
      const packages = specifiersOf(file)
        .filter(isFrameworkPackage)
        .map((specifier) => `${file} imports ${specifier}`);
      const named = names
        .filter((name) => new RegExp(`['"\`]${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"\`]`).test(code))
        .map((name) => `${file} names '${name}'`);
      const constants = /\bFRAMEWORK_[A-Z_]+\b/.test(code) ? [`${file} names a FRAMEWORK_ constant`] : [];
      const scopes = [...code.matchAll(/['"`]((?:@[\w.-]+\/)?[\w.-]+)/g)]
        .map((match) => match[1] as string)
        .filter((literal) => literal.startsWith('@') && isFrameworkPackage(literal))
        .map((literal) => `${file} names '${literal}'`);
      return [...packages, ...named, ...constants, ...scopes];
    });
    expect(found).toEqual([]);
  });

  it('the core files import nothing from otel/', () => {
    expect(violations(CORE_FILES, ['otel'])).toEqual([]);
  });

  it('internal/ imports nothing from otel/, adapters/, instrumentation/ or register/', () => {
    expect(violations(under('internal'), ['otel', 'adapters', 'instrumentation', 'register'])).toEqual([]);
  });

  it("ToolResultError's code is the conventions' error.type the core cannot import (tool_error)", () => {
    expect(new ToolResultError('weather', {}, 'failed').code).toBe(ERROR_TYPE_VALUE_TOOL_ERROR);
  });
});
