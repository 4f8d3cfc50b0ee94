/**
 * The agent signals of issue 40 that run on every call (repeated calls, result size) turned off: what
 * the floors record (a span and a duration sample), so that the listener and the MCP adapter are
 * judged against their floors on the same work, and the signals against the listener without them.
 */
export const SIGNALS_OFF = Object.freeze({ recordRepeatedCalls: false, recordResultSize: false });
