// A fake OpenRouter Responses API (plain JavaScript: fixture apps under test/register load it too); types in the .d.mts.
import { startFakeApiServer } from './fake-api-server.mjs';

/**
 * A fake OpenRouter Responses API on 127.0.0.1, as `@openrouter/sdk`'s `callModel` (and
 * `@openrouter/agent`'s) calls it: `POST …/responses` answers with what `reply` makes of the request
 * (and its index): `{ toolCalls: [{ id, name, arguments }] }` (function calls; `arguments` the raw
 * text the model wrote) or `{ content }` (a message). The answer is the API's server-sent events
 * when the request asks for `stream` (callModel always does: `response.created`, the output items
 * added and done, the text deltas, `response.completed`), else one JSON response. `serverURL` is
 * what the client is given (`/api/v1` included).
 */
export async function startFakeResponsesApi(reply) {
  const requests = [];
  const server = await startFakeApiServer(async (req, res, text) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method !== 'POST' || !path.endsWith('/responses')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":404,"message":"not found"}}');
      return;
    }
    const request = { path, headers: req.headers, body: JSON.parse(text) };
    requests.push(request);
    const answer = reply(request, requests.length - 1);
    const id = `resp_${requests.length}`;
    const output = [
      ...(answer.toolCalls ?? []).map((call, index) => ({
        type: 'function_call',
        id: `fc_${requests.length}_${index}`,
        call_id: call.id,
        name: call.name,
        arguments: call.arguments,
        status: 'completed',
      })),
      ...(answer.content === undefined
        ? []
        : [
            {
              type: 'message',
              id: `msg_${requests.length}`,
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: answer.content, annotations: [] }],
            },
          ]),
    ];
    const response = (status, items) => ({
      id,
      object: 'response',
      created_at: 1_700_000_000,
      completed_at: status === 'completed' ? 1_700_000_001 : null,
      status,
      model: String(request.body.model ?? 'openai/gpt-fake'),
      output: items,
      error: null,
      incomplete_details: null,
      instructions: null,
      metadata: null,
      temperature: null,
      top_p: null,
      presence_penalty: null,
      frequency_penalty: null,
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
      usage:
        status === 'completed'
          ? {
              input_tokens: 10,
              input_tokens_details: { cached_tokens: 0 },
              output_tokens: 5,
              output_tokens_details: { reasoning_tokens: 0 },
              total_tokens: 15,
            }
          : null,
    });
    if (request.body.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(response('completed', output)));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let sequence = 0;
    const send = (event) => res.write(`data: ${JSON.stringify({ ...event, sequence_number: sequence++ })}\n\n`);
    send({ type: 'response.created', response: response('in_progress', []) });
    output.forEach((item, index) => {
      if (item.type === 'function_call') {
        send({
          type: 'response.output_item.added',
          output_index: index,
          item: { ...item, arguments: '', status: 'in_progress' },
        });
        send({
          type: 'response.function_call_arguments.delta',
          output_index: index,
          item_id: item.id,
          delta: item.arguments,
        });
        send({
          type: 'response.function_call_arguments.done',
          output_index: index,
          item_id: item.id,
          name: item.name,
          arguments: item.arguments,
        });
      } else {
        send({
          type: 'response.output_item.added',
          output_index: index,
          item: { ...item, content: [], status: 'in_progress' },
        });
        const text = item.content[0].text;
        send({
          type: 'response.output_text.delta',
          output_index: index,
          item_id: item.id,
          content_index: 0,
          delta: text,
          logprobs: [],
        });
        send({
          type: 'response.output_text.done',
          output_index: index,
          item_id: item.id,
          content_index: 0,
          text,
          logprobs: [],
        });
      }
      send({ type: 'response.output_item.done', output_index: index, item });
    });
    send({ type: 'response.completed', response: response('completed', output) });
    res.end('data: [DONE]\n\n');
  });
  return { serverURL: `${server.origin}/api/v1`, requests, close: server.close };
}

/** The `function_call_output` items request `request` sent: `{ callId, output }` each, in order. */
export function toolOutputsIn(request) {
  return (Array.isArray(request?.body.input) ? request.body.input : [])
    .filter((item) => item.type === 'function_call_output')
    .map((item) => ({ callId: item.call_id, output: item.output }));
}
