import type { IncomingMessage, ServerResponse } from 'node:http';

export interface FakeApiServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  close(): Promise<void>;
}

export function startFakeApiServer(
  handle: (req: IncomingMessage, res: ServerResponse, body: string) => unknown,
): Promise<FakeApiServer>;
