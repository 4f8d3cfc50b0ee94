import { canonicalJson } from './canonical-json.js';

/** The traces remembered: the most recent ones (a trace that comes back after this many others starts anew). */
export const MAX_TRACES = 1024;
/** Distinct tool names remembered per trace, and distinct arguments per name: later ones are not counted. */
const MAX_NAMES_PER_TRACE = 64;
const MAX_ARGUMENTS_PER_NAME = 64;
/** Canonical arguments up to this length are kept as they are; longer ones as a 53-bit hash. */
const MAX_KEPT_KEY_LENGTH = 128;

/** A tool's calls in one trace. */
interface ToolCalls {
  readonly toolName: string;
  /** The first call's arguments, until a second call of the tool needs them compared: not serialized before. */
  first: unknown;
  /** The arguments seen (canonical JSON, or its hash) and how many calls had them; from the second call on. */
  seen: Map<string | number, number> | undefined;
}

/** A trace's calls: its first tool's in place (most traces call few tools), the others by name. */
interface TraceCalls extends ToolCalls {
  others: Map<string, ToolCalls> | undefined;
}

/**
 * Which calls repeat an earlier one of their trace: same tool name, same arguments (canonical JSON,
 * key order ignored, within `maxLength` characters). Only the arguments of a tool whose name
 * comes back in the trace are serialized. Memory is bounded: `MAX_TRACES` traces, each at most
 * `MAX_NAMES_PER_TRACE` × `MAX_ARGUMENTS_PER_NAME` keys of at most `MAX_KEPT_KEY_LENGTH`
 * characters; the first call of each tool in a trace is held by reference until the name comes back.
 */
export class RepeatedCalls {
  private readonly traces = new Map<string, TraceCalls>();
  /** The remembered trace ids in a ring, oldest next: the one to forget when a new trace comes. */
  private readonly ring: (string | undefined)[] = new Array(MAX_TRACES).fill(undefined);
  private next = 0;

  constructor(private readonly maxLength: number) {}

  /** How many calls of `toolName` with these arguments came before this one in trace `traceId`. */
  before(traceId: string, toolName: string, toolInput: unknown): number {
    const trace = this.traces.get(traceId);
    if (trace === undefined) {
      this.remember(traceId, { toolName, first: toolInput, seen: undefined, others: undefined });
      return 0;
    }
    const calls = trace.toolName === toolName ? trace : trace.others?.get(toolName);
    if (calls === undefined) {
      trace.others ??= new Map();
      if (trace.others.size < MAX_NAMES_PER_TRACE - 1) {
        trace.others.set(toolName, { toolName, first: toolInput, seen: undefined });
      }
      return 0;
    }
    let { seen } = calls;
    if (seen === undefined) {
      seen = new Map([[this.keyOf(calls.first), 1]]);
      calls.seen = seen;
      calls.first = undefined;
    }
    const key = this.keyOf(toolInput);
    const count = seen.get(key);
    if (count !== undefined) seen.set(key, count + 1);
    else if (seen.size < MAX_ARGUMENTS_PER_NAME) seen.set(key, 1);
    return count ?? 0;
  }

  /** A new trace, in place of the oldest once `MAX_TRACES` are remembered (no iterator made per call). */
  private remember(traceId: string, calls: TraceCalls): void {
    const oldest = this.ring[this.next];
    if (oldest !== undefined) this.traces.delete(oldest);
    this.ring[this.next] = traceId;
    this.next = (this.next + 1) % MAX_TRACES;
    this.traces.set(traceId, calls);
  }

  /** How many traces are remembered (for the bench's memory figure and the tests). */
  get size(): number {
    return this.traces.size;
  }

  private keyOf(toolInput: unknown): string | number {
    const text = canonicalJson(toolInput, this.maxLength);
    return text.length <= MAX_KEPT_KEY_LENGTH ? text : hash53(text);
  }
}

/** cyrb53: a 53-bit string hash (two 32-bit halves); two different arguments share one with odds of 2^-53. */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
