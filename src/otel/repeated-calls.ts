import { Hash53 } from '../internal/hash53.js';
import { canonicalJson } from './canonical-json.js';

/** The traces remembered: the most recent ones (a trace that comes back after this many others starts anew). */
export const MAX_TRACES = 1024;
/**
 * Entries remembered in all, a tool in a trace counting 2 (its name and its first arguments), other
 * arguments of it 1: past it, the oldest traces are forgotten. With `MAX_KEPT_KEY_LENGTH` and the
 * 256-character bound on names, what bounds the table's memory whoever picks the trace ids, the names
 * and the arguments (an MCP server's peer picks all three): about 4 MB at worst (docs/opentelemetry.md).
 */
export const MAX_ENTRIES = 8192;
/** A tool's entries: its name and its first arguments' key. */
const TOOL_ENTRIES = 2;
/** Distinct tool names remembered per trace, and distinct arguments per name: later ones are not counted. */
const MAX_NAMES_PER_TRACE = 64;
const MAX_ARGUMENTS_PER_NAME = 64;
/** Canonical arguments up to this length are kept as they are; longer ones as a 53-bit hash. */
const MAX_KEPT_KEY_LENGTH = 128;

/**
 * A call's arguments as the table compares them: their canonical JSON (object keys sorted, within
 * the content bound), kept as it is when short, else its 53-bit hash. Never the arguments themselves:
 * a caller's objects (a peer's 512 KB arguments) are not kept alive by the table.
 */
export type RepeatKey = string | number;

/** The key of a call's arguments: their canonical JSON within `maxLength` characters (canonical-json.ts). */
export function repeatKey(toolInput: unknown, maxLength: number): RepeatKey {
  return keyOfText(canonicalJson(toolInput, maxLength));
}

/**
 * The key of a call's arguments from the text captured of them (`gen_ai.tool.call.arguments`, JSON
 * within the same bound): read back and made canonical, so that each getter of the arguments is read
 * once, by the capture. Plain data, as model-made arguments are, gives the key `repeatKey` gives.
 */
export function repeatKeyOfCaptured(captured: string, maxLength: number): RepeatKey {
  let value: unknown;
  try {
    value = JSON.parse(captured);
  } catch {
    // a bound under 3 characters leaves a cut value no room to be JSON: the text is the key
    return keyOfText(captured);
  }
  return keyOfText(canonicalJson(value, maxLength));
}

function keyOfText(text: string): RepeatKey {
  return text.length <= MAX_KEPT_KEY_LENGTH ? text : hash53(text);
}

/** A tool's calls in one trace: its first arguments in place (most tools are called once or with the same ones). */
interface ToolCalls {
  readonly toolName: string;
  readonly firstKey: RepeatKey;
  /** How many calls had the first arguments. */
  firstCount: number;
  /** The other arguments seen and how many calls had each. */
  others: Map<RepeatKey, number> | undefined;
}

/** A trace's calls: its first tool's in place (most traces call few tools), the others by name. */
interface TraceCalls extends ToolCalls {
  tools: Map<string, ToolCalls> | undefined;
  /** The entries this trace holds (its tools and their distinct arguments), counted in `MAX_ENTRIES`. */
  entries: number;
}

/**
 * Which calls repeat an earlier one of their trace: same tool name, same arguments (`RepeatKey`).
 * Memory is bounded whatever the traces and arguments: at most `MAX_TRACES` traces and `MAX_ENTRIES`
 * entries (a name or a key of at most `MAX_KEPT_KEY_LENGTH` characters), the oldest traces forgotten
 * first; per trace at most `MAX_NAMES_PER_TRACE` names and `MAX_ARGUMENTS_PER_NAME` keys per name.
 */
export class RepeatedCalls {
  private readonly traces = new Map<string, TraceCalls>();
  /** The remembered trace ids in arrival order, a ring: `oldest` is the next to forget. */
  private readonly ring: (string | undefined)[] = new Array(MAX_TRACES).fill(undefined);
  private oldest = 0;
  private count = 0;
  private entries = 0;

  /** How many calls of `toolName` with arguments `key` came before this one in trace `traceId`. */
  before(traceId: string, toolName: string, key: RepeatKey): number {
    const trace = this.traces.get(traceId);
    if (trace === undefined) {
      const calls = {
        toolName,
        firstKey: key,
        firstCount: 1,
        others: undefined,
        tools: undefined,
        entries: TOOL_ENTRIES,
      };
      this.remember(traceId, calls);
      return 0;
    }
    const calls = trace.toolName === toolName ? trace : trace.tools?.get(toolName);
    if (calls === undefined) {
      const names = trace.tools === undefined ? 1 : trace.tools.size + 1;
      if (names < MAX_NAMES_PER_TRACE && this.makeRoom(trace, TOOL_ENTRIES)) {
        trace.tools ??= new Map();
        trace.tools.set(toolName, { toolName, firstKey: key, firstCount: 1, others: undefined });
      }
      return 0;
    }
    if (calls.firstKey === key) return calls.firstCount++;
    const count = calls.others?.get(key);
    if (count !== undefined) {
      (calls.others as Map<RepeatKey, number>).set(key, count + 1);
      return count;
    }
    const distinct = calls.others === undefined ? 1 : calls.others.size + 1;
    if (distinct < MAX_ARGUMENTS_PER_NAME && this.makeRoom(trace, 1)) {
      calls.others ??= new Map();
      calls.others.set(key, 1);
    }
    return 0;
  }

  /** How many traces are remembered (for the bench's memory figure and the tests). */
  get size(): number {
    return this.traces.size;
  }

  /** A new trace, in place of the oldest once `MAX_TRACES` are remembered (no iterator made per call). */
  private remember(traceId: string, calls: TraceCalls): void {
    while (this.count > 0 && (this.count === MAX_TRACES || this.entries + calls.entries > MAX_ENTRIES)) {
      this.forgetOldest();
    }
    this.ring[(this.oldest + this.count) % MAX_TRACES] = traceId;
    this.count++;
    this.entries += calls.entries;
    this.traces.set(traceId, calls);
  }

  /**
   * `count` more entries for `trace`: the oldest traces forgotten while they do not fit. False when
   * `trace` is the oldest itself (its later entries are not remembered, as past the per-trace bounds).
   */
  private makeRoom(trace: TraceCalls, count: number): boolean {
    while (this.entries + count > MAX_ENTRIES) {
      if (this.traces.get(this.ring[this.oldest] as string) === trace) return false;
      this.forgetOldest();
    }
    trace.entries += count;
    this.entries += count;
    return true;
  }

  private forgetOldest(): void {
    const traceId = this.ring[this.oldest] as string;
    this.entries -= (this.traces.get(traceId) as TraceCalls).entries;
    this.traces.delete(traceId);
    this.ring[this.oldest] = undefined;
    this.oldest = (this.oldest + 1) % MAX_TRACES;
    this.count--;
  }
}

/**
 * The arguments' hash (cyrb53, `Hash53`): keys are compared only among one tool's arguments in one trace (at
 * most 64), so a false repeat has odds of about 2·10^-13 per tool and trace.
 */
function hash53(text: string): number {
  return new Hash53().add(text).digest();
}
