const ELLIPSIS = '…';

/**
 * Bound on each metric attribute value (`gen_ai.tool.name`, `gen_ai.tool.type`, `error.type`,
 * `gen_ai.agent.name`), and on the span name and attributes made of the same values. Real tool
 * names and error codes are far shorter (OpenAI caps tool names at 64); without a bound, a 1 MB
 * `error.code` would be kept verbatim by the SDK's metric storage for each distinct value.
 */
export const MAX_ATTRIBUTE_LENGTH = 256;

/**
 * `text` cut to at most `maxLength` characters, ending with `…` when cut. Never cuts a surrogate
 * pair in half: a lone surrogate is ill-formed UTF-16, which exporters emit as such (OTLP JSON).
 */
export function truncate(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  return `${sliceWellFormed(text, maxLength - 1)}${ELLIPSIS}`;
}

/** The first `end` characters of `text`, one fewer when the last would be the first half of a pair. */
export function sliceWellFormed(text: string, end: number): string {
  if (end <= 0) return '';
  if (end >= text.length) return text;
  const last = text.charCodeAt(end - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, end - 1) : text.slice(0, end);
}

/** A metric attribute value within `MAX_ATTRIBUTE_LENGTH`. */
export function boundedAttribute(text: string): string {
  return text.length > MAX_ATTRIBUTE_LENGTH ? truncate(text, MAX_ATTRIBUTE_LENGTH) : text;
}
