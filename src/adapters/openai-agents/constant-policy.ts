/*
 * The approval policy `tool()` makes when the app gives no function: `needsApproval: true`, `false`, or
 * none at all (most tools). `tool()` makes it from one closure (`async () => options.needsApproval` when
 * a boolean, else false), and the runner keeps every such policy in a module-private set: a tool whose
 * `needsApproval` is in that set has a static policy, any other function is a dynamic one, which the
 * runner treats apart (it stops for approval of a call whose arguments it cannot read, among others).
 * A stand-in function is never in that set, so the adapter must know a constant policy before it
 * stands in for it: a tool with no policy of its own keeps its own `needsApproval` (approvals.ts).
 *
 * How it is told: by its source text. Every constant policy of one SDK is the same closure, so its text
 * is that of the policy of a tool made here with that SDK's own `tool()`; a function the app wrote
 * has another text. Calling a constant policy is safe: it reads its options and nothing else.
 */

type SdkTool = (options: object) => unknown;

/** The text of the SDK's constant policy, by its `tool()`: undefined when a tool could not be made. */
const constantSources = new WeakMap<SdkTool, string | undefined>();

/**
 * The answer of `needsApproval` when it is a constant policy of the SDK whose `tool()` is `sdkTool`;
 * undefined when it is a function of the app's (or cannot be told, or there is no `sdkTool`).
 */
export function constantPolicyAnswer(needsApproval: unknown, sdkTool: unknown): Promise<unknown> | undefined {
  if (typeof needsApproval !== 'function' || typeof sdkTool !== 'function') return undefined;
  const source = constantSourceOf(sdkTool as SdkTool);
  if (source === undefined || sourceOf(needsApproval) !== source) return undefined;
  try {
    // the constant policy ignores its arguments
    return Promise.resolve((needsApproval as () => unknown)());
  } catch {
    return undefined;
  }
}

function constantSourceOf(sdkTool: SdkTool): string | undefined {
  if (constantSources.has(sdkTool)) return constantSources.get(sdkTool);
  let source: string | undefined;
  try {
    const probe = sdkTool({
      name: 'otel_tool_calls_probe',
      description: '',
      parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
      strict: true,
      execute: () => '',
    });
    source = sourceOf((probe as { needsApproval?: unknown } | null)?.needsApproval);
  } catch {
    source = undefined;
  }
  constantSources.set(sdkTool, source);
  return source;
}

function sourceOf(value: unknown): string | undefined {
  if (typeof value !== 'function') return undefined;
  try {
    return Function.prototype.toString.call(value);
  } catch {
    return undefined;
  }
}
