import { boundedJson } from './bounded-json.js';
import { truncate } from './bounded-text.js';
import type { Redact, RedactContext } from './types.js';
import { HOOK_THREW, HOOK_WENT_ASYNC, runUserHook } from './user-hook.js';

const REDACTION_FAILED = '"[redaction failed]"';

/**
 * The span attribute text of a captured value: redacted first (so truncation never keeps a
 * secret that redaction would have removed), then serialized within `maxLength` characters.
 * A `redact` that throws records a placeholder: never the unredacted value.
 */
export function captureContent(
  value: unknown,
  context: RedactContext,
  redact: Redact | undefined,
  maxLength: number,
): string {
  let redacted = value;
  if (redact) {
    redacted = runUserHook(
      () => `redact for the ${context.kind} of '${context.toolName}'`,
      () => `redact threw for the ${context.kind} of '${context.toolName}'`,
      () => redact(value, context),
    );
    // an async redact: what it will resolve to is not known now, and the raw value must not be recorded
    if (redacted === HOOK_THREW || redacted === HOOK_WENT_ASYNC) return REDACTION_FAILED.slice(0, maxLength);
  }
  // a plain string (the usual tool result) is recorded as is, not as a JSON string literal
  if (typeof redacted === 'string') {
    return truncate(redacted, maxLength);
  }
  return boundedJson(redacted, maxLength);
}
