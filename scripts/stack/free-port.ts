import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that was free a moment ago, for a server a test starts.
 *
 * Chosen below the kernel's ephemeral range (`ip_local_port_range`), where there is one: a port the
 * OS hands out for `listen(0)` is back in that range once closed, and any outgoing connection of the
 * machine (another test's HTTP client) may take it as its source port before the test's server binds
 * it (a Jaeger of CI's once failed so: "address already in use"). Below the range the kernel never
 * hands a port out by itself; only another test drawing the same one could take it.
 */
export async function freePort(): Promise<number> {
  const below = ephemeralRangeStart();
  if (below !== undefined) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const port = LOWEST_DRAWN_PORT + Math.floor(Math.random() * (below - LOWEST_DRAWN_PORT));
      if (await bindable(port)) return port;
    }
  }
  return listenAndClose(0);
}

/** The lowest port drawn: above the ports servers take by default (OTLP 4317/4318, Prometheus 9090, Jaeger 16686). */
export const LOWEST_DRAWN_PORT = 20_000;

/** The first port of the kernel's ephemeral range (Linux), when there is room below it. */
function ephemeralRangeStart(): number | undefined {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    return low !== undefined && Number.isInteger(low) && low > LOWEST_DRAWN_PORT + 1000 ? low : undefined;
  } catch {
    return undefined;
  }
}

async function bindable(port: number): Promise<boolean> {
  try {
    return (await listenAndClose(port)) === port;
  } catch {
    return false;
  }
}

/** Listens on `port` (0: the OS picks one) and closes again: the port that was bound. */
function listenAndClose(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (bound > 0 ? resolve(bound) : reject(new Error('no port assigned'))));
    });
  });
}
