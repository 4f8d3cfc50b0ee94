import type { DiagLogger } from '@opentelemetry/api';
import type { ToolCallListener } from '../tool-call-listener.js';

/** InstrumentationBase's shimmer `_wrap` / `_unwrap`, as the framework patches use them. */
export type Wrap = <Nodule extends object, Name extends keyof Nodule>(
  nodule: Nodule,
  name: Name,
  wrapper: (original: Nodule[Name], name: Name) => Nodule[Name],
) => unknown;
export type Unwrap = <Nodule extends object>(nodule: Nodule, name: keyof Nodule) => void;

/** What each framework's patch gets from `ToolCallsInstrumentation`. */
export interface PatchContext {
  /** The OpenTelemetry listener built from the instrumentation's config. */
  readonly listener: () => ToolCallListener<unknown>;
  readonly isEnabled: () => boolean;
  readonly wrap: Wrap;
  readonly unwrap: Unwrap;
  readonly logger: DiagLogger;
}

/** Runs `prepare`; if it throws (a framework shape this code did not expect), logs and returns `fallback`. */
export function guarded<T>(logger: DiagLogger, what: string, prepare: () => T, fallback: T): T {
  try {
    return prepare();
  } catch (error) {
    logger.warn(`${what}: not observed (${error instanceof Error ? error.message : String(error)})`);
    return fallback;
  }
}
