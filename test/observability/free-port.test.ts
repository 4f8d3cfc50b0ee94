import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { freePort, LOWEST_DRAWN_PORT } from '../helpers/free-port.js';

/** The kernel's ephemeral range, where this machine has one to read. */
function ephemeralRange(): [number, number] | undefined {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    return low !== undefined && high !== undefined ? [low, high] : undefined;
  } catch {
    return undefined;
  }
}

describe('freePort (the port a test server is started on)', () => {
  it('gives a port that can be bound on 127.0.0.1', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    expect(server.address()).toMatchObject({ port, address: '127.0.0.1' });
    await new Promise((resolve) => server.close(resolve));
  });

  const range = ephemeralRange();
  const roomBelow = range !== undefined && range[0] > LOWEST_DRAWN_PORT + 1000;

  it.runIf(roomBelow)(
    "is below the kernel's ephemeral range, where an outgoing connection never takes it",
    async () => {
      const [low] = range as [number, number];
      const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
      for (const port of ports) {
        expect(port).toBeGreaterThanOrEqual(LOWEST_DRAWN_PORT);
        expect(port).toBeLessThan(low);
      }
    },
  );

  it.runIf(roomBelow)('chooses again when the port it drew is taken', async () => {
    const [low] = range as [number, number];
    const held = createServer();
    const heldPort = await freePort();
    await new Promise<void>((resolve) => held.listen(heldPort, '127.0.0.1', resolve));
    // the first draw is the held port; the second one another
    const draws = [(heldPort - LOWEST_DRAWN_PORT + 0.5) / (low - LOWEST_DRAWN_PORT), 0.5];
    const random = vi.spyOn(Math, 'random').mockImplementation(() => draws.shift() ?? 0.25);
    try {
      const port = await freePort();
      expect(port).not.toBe(heldPort);
      expect(random).toHaveBeenCalledTimes(2);
    } finally {
      random.mockRestore();
      await new Promise((resolve) => held.close(resolve));
    }
  });
});
