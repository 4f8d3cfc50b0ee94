// A fake Anthropic Messages API (plain JavaScript: fixture apps under test/register load it too); types in the .d.mts.
import { startFakeApiServer } from './fake-api-server.mjs';

/**
 * A fake Anthropic Messages API on 127.0.0.1: `POST /v1/messages` answers with what `reply` makes of
 * the request, as JSON, or as the API's server-sent events when the request asks for `stream`.
 * Any other path gets an empty 200 (the Claude Code CLI asks a few of its own at start).
 */
export async function startFakeMessagesApi(reply) {
  const requests = [];
  let messageCount = 0;
  const server = await startFakeApiServer(async (req, res, text) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method !== 'POST' || !path.endsWith('/v1/messages')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    const body = text === '' ? {} : JSON.parse(text);
    const request = { path, body };
    requests.push(request);
    const answer = reply(request, requests.length - 1);
    const message = messageOf(answer, `msg_fake_${++messageCount}`, String(body.model ?? 'claude-fake'));
    if (body.stream === true) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const event of eventsOf(message)) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      res.end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${messageCount}` });
      res.end(JSON.stringify(message));
    }
  });
  return { baseURL: server.origin, requests, close: server.close };
}

const USAGE = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

function messageOf(reply, id, model) {
  const stop =
    reply.stop_reason ?? (reply.content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn');
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: reply.content,
    stop_reason: stop,
    stop_sequence: null,
    usage: USAGE,
  };
}

/** The events the API streams for `message`: one start, each block as start/delta/stop, then the end. */
function eventsOf(message) {
  const events = [
    {
      type: 'message_start',
      message: { ...message, content: [], stop_reason: null, usage: { ...USAGE, output_tokens: 0 } },
    },
  ];
  message.content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else {
      events.push({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      events.push({
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push({
    type: 'message_delta',
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: USAGE.output_tokens },
  });
  events.push({ type: 'message_stop' });
  return events;
}
