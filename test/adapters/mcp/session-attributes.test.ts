import { describe, expect, it } from 'vitest';
import { SessionAttributes } from '../../../src/adapters/mcp/attributes.js';

/** A stdio server transport, told by its shape (protocol-seam.ts). */
const stdio = { _stdin: {}, _stdout: {} };

describe("a session's MCP attributes, made once (SessionAttributes)", () => {
  it('the same facts give the same frozen object; any other fact a new one with it', () => {
    const session = new SessionAttributes();
    const first = session.of('s-1', '2025-06-18', stdio);
    expect(first).toEqual({
      'gen_ai.tool.type': 'extension',
      'mcp.method.name': 'tools/call',
      'mcp.session.id': 's-1',
      'mcp.protocol.version': '2025-06-18',
      'network.transport': 'pipe',
    });
    expect(Object.isFrozen(first)).toBe(true);
    expect(session.of('s-1', '2025-06-18', stdio)).toBe(first);

    // the version negotiated later, another session, HTTP, a peer: each a new object, with its fact
    expect(session.of('s-1', '2025-11-25', stdio)['mcp.protocol.version']).toBe('2025-11-25');
    expect(session.of('s-2', '2025-11-25', stdio)['mcp.session.id']).toBe('s-2');
    expect(session.of('s-2', '2025-11-25', stdio, true)['network.transport']).toBe('tcp');
    const peer = { address: '127.0.0.1', port: 5000 };
    expect(session.of('s-2', '2025-11-25', stdio, true, peer)).toMatchObject({
      'client.address': '127.0.0.1',
      'client.port': 5000,
    });
    // and back: the first facts again make the first attributes again
    expect(session.of('s-1', '2025-06-18', stdio)).toEqual(first);
  });
});
