import { createServer, type Socket } from 'node:net';

/** An address where nothing listens: a port bound on 127.0.0.1, then closed (connections are refused). */
export async function closedEndpoint(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** A loopback server that accepts connections and reads requests but never answers. */
export async function hangingEndpoint() {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('data', () => {}); // read and drop: the client waits for an answer that never comes
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    accepted: () => accepted,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Resolves to 'settled' when `promise` settles within `ms`, else 'hung': a hang detector, not a timing assertion. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<'settled' | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => {
    timer = setTimeout(() => resolve('hung'), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        () => 'settled' as const,
        () => 'settled' as const,
      ),
      hung,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
