import { boundedJson } from './bounded-json.js';
import { cutJson } from './json-cut.js';
import type { Redact, RedactContext } from './types.js';
import { HOOK_THREW, HOOK_WENT_ASYNC, runUserHook } from './user-hook.js';

/** What is captured in place of a value whose `redact` failed: never the unredacted value. */
const REDACTION_FAILED = '[redaction failed]';

/**
 * The span attribute text of a captured value: redacted first (so truncation never keeps a
 * secret that redaction would have removed), then serialized within `maxLength` characters.
 */
export function captureContent(
  value: unknown,
  context: RedactContext,
  redact: Redact | undefined,
  maxLength: number,
): string {
  return contentText(redactContent(value, context, redact), maxLength);
}

/**
 * `value` as `redact` gives it back (the value itself when there is no `redact`). A `redact` that
 * throws, or returns a Promise (what it will resolve to is not known now, and the raw value must not
 * be recorded), gives a placeholder.
 */
export function redactContent(value: unknown, context: RedactContext, redact: Redact | undefined): unknown {
  if (redact === undefined) return value;
  const redacted = runUserHook(
    () => `redact for the ${context.kind} of '${context.toolName}'`,
    () => `redact threw for the ${context.kind} of '${context.toolName}'`,
    () => redact(value, context),
  );
  return redacted === HOOK_THREW || redacted === HOOK_WENT_ASYNC ? REDACTION_FAILED : redacted;
}

/**
 * A value as JSON text of at most `maxLength` characters, valid JSON from 3 characters on (a value
 * that does not fit is cut inside and the cut marked: bounded-json.ts). A string is a JSON string,
 * but a string that is the JSON text of an object or array (a tool that returns `JSON.stringify(...)`)
 * is recorded as that JSON, as the conventions ask of a serialized value, cut inside if it is longer;
 * what is read of it is bounded by `maxLength` too.
 */
export function contentText(value: unknown, maxLength: number): string {
  if (typeof value === 'string') {
    const first = value.charCodeAt(0);
    if (first === 0x7b || first === 0x5b) {
      const json = cutJson(value, maxLength);
      if (json !== undefined) return json;
    }
  }
  return boundedJson(value, maxLength);
}
