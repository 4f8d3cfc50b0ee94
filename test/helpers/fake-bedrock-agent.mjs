// A fake Bedrock agent runtime (plain JavaScript: fixture apps under test/register load it too); types in the .d.mts.
import { createServer } from 'node:http2';
import { EventStreamCodec } from '@smithy/core/event-streams';

const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);
const string = (value) => ({ type: 'string', value });

/**
 * One event of an InvokeAgent / InvokeInlineAgent `completion` stream, as the service sends it: an AWS
 * event-stream message (`:message-type` `event`, `:event-type` the union member, `:content-type`
 * `application/json`) whose body is the member's structure as JSON (a `chunk`'s `bytes` in base64).
 */
function encodeEvent(event) {
  const [[type, member]] = Object.entries(event);
  const body = type === 'chunk' ? { bytes: Buffer.from(member.text ?? '', 'utf8').toString('base64') } : member;
  return codec.encode({
    headers: {
      ':message-type': string('event'),
      ':event-type': string(type),
      ':content-type': string('application/json'),
    },
    body: new TextEncoder().encode(JSON.stringify(body)),
  });
}

/**
 * A fake Bedrock agent runtime on 127.0.0.1, as `@aws-sdk/client-bedrock-agent-runtime` calls it:
 * `POST /agents/{agentId}/agentAliases/{agentAliasId}/sessions/{sessionId}/text` (InvokeAgent) and
 * `POST /agents/{sessionId}` (InvokeInlineAgent) answer with the events `reply` makes of the request
 * (its JSON body, its kind and session, and its index): `{ chunk: { text } }`, `{ returnControl:
 * { invocationId, invocationInputs } }`, each an AWS event-stream message, in one response
 * (`application/vnd.amazon.eventstream`). Over HTTP/2 without TLS, as the SDK's NodeHttp2Handler speaks
 * to an `http://` endpoint. `endpoint` is what the client is given.
 */
export async function startFakeBedrockAgent(reply) {
  const requests = [];
  const server = await startHttp2Server(async (req, res, text) => {
    const path = decodeURIComponent((req.url ?? '').split('?')[0] ?? '');
    const agent = /^\/agents\/([^/]+)\/agentAliases\/([^/]+)\/sessions\/([^/]+)\/text$/.exec(path);
    const inline = agent ? null : /^\/agents\/([^/]+)$/.exec(path);
    if (req.method !== 'POST' || (!agent && !inline)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
      return;
    }
    const request = {
      kind: agent ? 'InvokeAgent' : 'InvokeInlineAgent',
      sessionId: agent ? agent[3] : inline[1],
      body: JSON.parse(text || '{}'),
    };
    requests.push(request);
    const events = reply(request, requests.length - 1);
    res.writeHead(200, {
      'content-type': 'application/vnd.amazon.eventstream',
      'x-amzn-bedrock-agent-content-type': 'application/json',
      'x-amz-bedrock-agent-session-id': request.sessionId,
      ...(agent ? { 'x-amz-bedrock-agent-memory-id': '' } : {}),
    });
    for (const event of events) res.write(encodeEvent(event));
    res.end();
  });
  return { endpoint: server.origin, requests, close: server.close };
}

/** An HTTP/2 server (cleartext) on 127.0.0.1, on a free port: `handle(req, res, body)` answers each request. */
async function startHttp2Server(handle) {
  // its connections, ended on close (a client that stopped reading a stream may leave one open)
  const sockets = new Set();
  const server = createServer();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('request', (req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** The results `request` sent back for a return of control (`sessionState` or `inlineSessionState`). */
export function returnedResults(request) {
  const state = request?.body.sessionState ?? request?.body.inlineSessionState;
  return { invocationId: state?.invocationId, results: state?.returnControlInvocationResults ?? [] };
}
