// The HTTP server under each fake model API (plain JavaScript: fixture apps under test/register load it too).
import { createServer } from 'node:http';

/**
 * An HTTP server on 127.0.0.1, on a free port: `handle(req, res, body)` answers each request, its
 * body read as text first. Resolves with its origin (`http://127.0.0.1:<port>`) and `close()`, which
 * ends the connections still open too.
 */
export async function startFakeApiServer(handle) {
  const server = createServer(async (req, res) => handle(req, res, await bodyOf(req)));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function bodyOf(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
