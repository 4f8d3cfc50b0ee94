import { wrapTools as anthropicWrapTools } from 'otel-tool-calls/anthropic';
import { wrapTools as langchainWrapTools } from 'otel-tool-calls/langchain';
import { wrapTools as llamaindexWrapTools } from 'otel-tool-calls/llamaindex';
import { wrapTools as openaiAgentsWrapTools } from 'otel-tool-calls/openai-agents';
import { describe, expect, it } from 'vitest';
import { recordingListener } from '../helpers/recording-listener.js';

type WrapTools = (tools: unknown, listener: unknown) => unknown;

/** Each array adapter's `wrapTools`, and what its errors say `tools` and a wrong entry must be. */
const adapters: [string, WrapTools, string, string | undefined][] = [
  ['anthropic', anthropicWrapTools as WrapTools, 'tools', undefined],
  ['openai-agents', openaiAgentsWrapTools as WrapTools, 'tools', 'a tool'],
  [
    'llamaindex',
    llamaindexWrapTools as WrapTools,
    'LlamaIndex tools',
    'a LlamaIndex tool (a `call` function and `metadata.name`)',
  ],
  ['langchain', langchainWrapTools as WrapTools, 'LangChain StructuredTools', 'a LangChain StructuredTool'],
];

describe('wrapTools of the adapters that take a tool array: the TypeError names the wrong argument, in order', () => {
  it.each(adapters)('%s: tools not an array, then the listener, then each entry', (_name, wrapTools, of, entry) => {
    expect(() => wrapTools({}, undefined)).toThrow(
      new TypeError(`wrapTools: \`tools\` must be an array of ${of}, got object`),
    );
    expect(() => wrapTools([null], undefined)).toThrow(
      new TypeError('wrapTools: `listener` must be a ToolCallListener object, got undefined'),
    );
    if (entry === undefined) {
      expect(wrapTools([null, 'x'], recordingListener())).toEqual([null, 'x']);
    } else {
      expect(() => wrapTools([null], recordingListener())).toThrow(
        new TypeError(`wrapTools: \`tools[0]\` must be ${entry}, got null`),
      );
    }
  });
});
