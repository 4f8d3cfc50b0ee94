import type { Attributes, AttributeValue } from '@opentelemetry/api';

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

/**
 * Bound on `gen_ai.tool.description` (a span attribute only): real descriptions are a few hundred
 * characters, an MCP server's may run to a few KB; the span keeps the start of a longer one.
 */
export const MAX_DESCRIPTION_LENGTH = 1024;
/** At most this many adapter-supplied attributes are kept on a span (`ToolCallInfo.attributes`)... */
export const MAX_EXTRA_ATTRIBUTES = 32;
/** ...out of at most this many keys looked at: the work is bounded whatever the object holds. */
const MAX_EXTRA_KEYS_READ = 256;

type Scalar = string | number | boolean;

/**
 * The one way a value from a peer or the app (a tool description, an adapter's attribute, a
 * request id) becomes an attribute value: a string cut to `maxLength`, a finite number, a boolean,
 * or an array of one of those (at most `MAX_EXTRA_ATTRIBUTES` elements, each bounded, those of
 * another type than the first left out: OpenTelemetry takes homogeneous arrays only); anything else
 * is no attribute (`undefined`). Messages take `errorMessageOf` instead.
 */
export function boundedValue(value: unknown, maxLength = MAX_ATTRIBUTE_LENGTH): AttributeValue | undefined {
  if (!Array.isArray(value)) return boundedScalar(value, maxLength);
  const bounded: Scalar[] = [];
  for (const element of value.slice(0, MAX_EXTRA_ATTRIBUTES)) {
    const scalar = boundedScalar(element, maxLength);
    if (scalar !== undefined && (bounded.length === 0 || typeof scalar === typeof bounded[0])) bounded.push(scalar);
  }
  return bounded as AttributeValue;
}

function boundedScalar(value: unknown, maxLength: number): Scalar | undefined {
  if (typeof value === 'string') return value.length > maxLength ? truncate(value, maxLength) : value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  return typeof value === 'boolean' ? value : undefined;
}

/**
 * `ToolCallInfo.attributes` as span attributes: at most `MAX_EXTRA_ATTRIBUTES` own enumerable keys
 * of at most `MAX_ATTRIBUTE_LENGTH` characters, each value through `boundedValue`. Never throws: an
 * object whose keys or getters throw gives what could be read before.
 */
export function boundedAttributes(attributes: unknown): Attributes | undefined {
  if (attributes === null || typeof attributes !== 'object') return undefined;
  const bounded: Attributes = {};
  let kept = 0;
  let read = 0;
  try {
    for (const key of Object.keys(attributes)) {
      if (++read > MAX_EXTRA_KEYS_READ) break;
      if (key.length > MAX_ATTRIBUTE_LENGTH) continue;
      const value = boundedValue((attributes as Record<string, unknown>)[key]);
      if (value === undefined) continue;
      bounded[key] = value;
      if (++kept === MAX_EXTRA_ATTRIBUTES) break;
    }
  } catch {
    // a Proxy or a throwing getter: the attributes read so far
  }
  return bounded;
}
