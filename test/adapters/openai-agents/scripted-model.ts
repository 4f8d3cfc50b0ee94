import { type Model, type ModelRequest, type ModelResponse, Usage } from '@openai/agents';

/**
 * A `Model` that asks for one function call, then answers with a final message quoting the tool
 * output it got back: the agent's final output shows what the tool returned to the model.
 */
export class FunctionCallThenEcho implements Model {
  readonly requests: ModelRequest[] = [];

  constructor(private readonly call: { readonly name: string; readonly arguments: unknown; readonly callId: string }) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    if (this.requests.length === 1) {
      return {
        usage: new Usage(),
        output: [
          {
            type: 'function_call',
            callId: this.call.callId,
            name: this.call.name,
            arguments: JSON.stringify(this.call.arguments),
            status: 'completed',
          },
        ],
      };
    }
    return {
      usage: new Usage(),
      output: [
        {
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: `tool said: ${toolOutputIn(request, this.call.callId)}` }],
        },
      ],
    };
  }

  // biome-ignore lint/correctness/useYield: run() in these tests is not streamed
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('FunctionCallThenEcho does not stream');
  }
}

/** The text the runner sent back to the model as the output of the function call `callId`. */
function toolOutputIn(request: ModelRequest, callId: string): string {
  const items = Array.isArray(request.input) ? request.input : [];
  for (const item of items) {
    if (item.type === 'function_call_result' && item.callId === callId) {
      const output = item.output as unknown;
      if (typeof output === 'string') return output;
      if (output !== null && typeof output === 'object' && 'text' in output) return String(output.text);
      return JSON.stringify(output);
    }
  }
  return '<no tool output>';
}
