/** The model's raw arguments as the listener is told them: the parsed JSON, or the text when it is not JSON. */
export function argumentsOf(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
