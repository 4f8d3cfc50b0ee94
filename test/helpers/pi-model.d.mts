import type { Model } from '@mariozechner/pi-ai';

/** The model pi's OpenAI-compatible provider sends its requests for to `baseURL` (a fake API on 127.0.0.1). */
export function fakeApiModel(baseURL: string): Model<'openai-completions'>;
