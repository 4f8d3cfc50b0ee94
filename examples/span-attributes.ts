// How the examples print a span's attributes: ` key=value` for each one the span has. An attribute the
// span does not have (no call id on an MCP notification, no error.type on a success) is left out.
import type { ReadableSpan } from '@opentelemetry/sdk-trace';

export function spanAttributes(span: ReadableSpan, keys: readonly string[]): string {
  return keys
    .filter((key) => span.attributes[key] !== undefined)
    .map((key) => ` ${key}=${span.attributes[key]}`)
    .join('');
}
