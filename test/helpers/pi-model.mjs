// A pi model (@mariozechner/pi-ai's `Model`) on a fake OpenAI-compatible API (plain JavaScript:
// fixture apps under test/register load it too); types in the .d.mts.

/**
 * The model pi's OpenAI-compatible provider (`openai-completions`) sends its requests for to
 * `baseURL` (a fake Chat Completions API on 127.0.0.1, fake-chat-completions.mjs): the provider
 * streams each request (`stream: true`) to `${baseURL}/chat/completions`.
 */
export function fakeApiModel(baseURL) {
  return {
    id: 'gpt-fake',
    name: 'Fake model',
    api: 'openai-completions',
    provider: 'openai',
    baseUrl: baseURL,
    reasoning: false,
    input: ['text'],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 128000,
    maxTokens: 1024,
  };
}
