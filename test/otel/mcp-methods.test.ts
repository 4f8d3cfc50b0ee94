import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpPromptOf, mcpResourceUriOf, mcpSpanName } from '../../src/otel/mcp-methods.js';

describe('the MCP method table', () => {
  it('names a tool call, a prompt and a prompt completion by their target', () => {
    expect(mcpSpanName('tools/call', 'weather')).toBe('tools/call weather');
    expect(mcpSpanName('prompts/get', mcpPromptOf('prompts/get', { name: 'greet' }))).toBe('prompts/get greet');
    const completion = { ref: { type: 'ref/prompt', name: 'greet' } };
    expect(mcpSpanName('completion/complete', mcpPromptOf('completion/complete', completion))).toBe(
      'completion/complete greet',
    );
  });

  it('keeps a resource URI out of the name, as an attribute only', () => {
    const params = { uri: 'file:///a.txt' };
    expect(mcpResourceUriOf('resources/read', params)).toBe('file:///a.txt');
    expect(mcpPromptOf('resources/read', params)).toBeUndefined();
    expect(mcpSpanName('resources/read', undefined)).toBe('resources/read');
  });

  it('gives a method without a target, or an empty target, no target', () => {
    expect(mcpPromptOf('tools/list', { name: 'x' })).toBeUndefined();
    expect(mcpResourceUriOf('tools/list', { uri: 'file:///a' })).toBeUndefined();
    expect(mcpPromptOf('prompts/get', { name: '' })).toBeUndefined();
    expect(mcpPromptOf('completion/complete', { ref: { type: 'ref/resource', name: 'x' } })).toBeUndefined();
  });

  // `execute_tool {tool}` is not an MCP span: the listener's span names it
  it('is the only place that builds an MCP span name from a method and a target', () => {
    const folders = ['src/adapters/mcp', 'src/otel'];
    const builders = folders.flatMap((folder) =>
      readdirSync(folder)
        .filter((file) => file.endsWith('.ts') && file !== 'mcp-methods.ts')
        .filter((file) =>
          /`\$\{(?![^}]*EXECUTE_TOOL)[^}]*(method|operation)[^}]*\} \$\{/i.test(
            readFileSync(join(folder, file), 'utf8'),
          ),
        )
        .map((file) => join(folder, file)),
    );
    expect(builders).toEqual([]);
  });
});
