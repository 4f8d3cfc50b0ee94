/**
 * `otel-tool-calls/semconv`: the attribute and metric names this package writes.
 *
 * Names from the OpenTelemetry GenAI and MCP semantic conventions (still experimental, so copied
 * here rather than imported from the incubating entry point, as the semantic-conventions package
 * recommends), and this package's own names. The stable names it writes (`error.type`, ...) are in
 * `stable-semconv.ts`.
 * A subpath of their own: an experimental name may change with the conventions without a breaking
 * change of the root entry point.
 *
 * @module
 */

/** The name of the operation being performed; `execute_tool` for a tool call. */
export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name' as const;
/** `gen_ai.operation.name` value for a tool call. */
export const GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL = 'execute_tool' as const;
/** Name of the tool utilized by the agent. */
export const ATTR_GEN_AI_TOOL_NAME = 'gen_ai.tool.name' as const;
/** Type of the tool: `function`, `extension` (e.g. an MCP server's tool) or `datastore`. */
export const ATTR_GEN_AI_TOOL_TYPE = 'gen_ai.tool.type' as const;
/** The tool call identifier given by the model. */
export const ATTR_GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id' as const;
/** The tool description. */
export const ATTR_GEN_AI_TOOL_DESCRIPTION = 'gen_ai.tool.description' as const;
/** Human-readable name of the GenAI agent. */
export const ATTR_GEN_AI_AGENT_NAME = 'gen_ai.agent.name' as const;
/** Parameters passed to the tool call (opt-in: sensitive). */
export const ATTR_GEN_AI_TOOL_CALL_ARGUMENTS = 'gen_ai.tool.call.arguments' as const;
/** The result returned by the tool call (opt-in: sensitive). */
export const ATTR_GEN_AI_TOOL_CALL_RESULT = 'gen_ai.tool.call.result' as const;

/** `gen_ai.tool.type` when the adapter knows no better. */
export const GEN_AI_TOOL_TYPE_VALUE_FUNCTION = 'function' as const;
/** `gen_ai.tool.type` for tools served by an agent-side extension such as an MCP server. */
export const GEN_AI_TOOL_TYPE_VALUE_EXTENSION = 'extension' as const;

/** The MCP request method, `tools/call` for a tool call. */
export const ATTR_MCP_METHOD_NAME = 'mcp.method.name' as const;
/** `mcp.method.name` value for a tool call. */
export const MCP_METHOD_NAME_VALUE_TOOLS_CALL = 'tools/call' as const;
/** The MCP session id, when the transport has one. */
export const ATTR_MCP_SESSION_ID = 'mcp.session.id' as const;

/** The version of the Model Context Protocol the session negotiated, e.g. `2025-06-18`. */
export const ATTR_MCP_PROTOCOL_VERSION = 'mcp.protocol.version' as const;
/** The JSON-RPC `id` of the request, as a string (never for a notification or a `null` id). */
export const ATTR_JSONRPC_REQUEST_ID = 'jsonrpc.request.id' as const;
/** The error code of a JSON-RPC error response, as a string (e.g. `-32602`). */
export const ATTR_RPC_RESPONSE_STATUS_CODE = 'rpc.response.status_code' as const;

/** Histogram (s) of MCP requests as the client sees them, from sending to the response. */
export const METRIC_MCP_CLIENT_OPERATION_DURATION = 'mcp.client.operation.duration' as const;
/** Histogram (s) of MCP requests as the server sees them, from receiving to sending the result. */
export const METRIC_MCP_SERVER_OPERATION_DURATION = 'mcp.server.operation.duration' as const;
/** Histogram (s) of MCP sessions as the client sees them, from connecting to the transport closing. */
export const METRIC_MCP_CLIENT_SESSION_DURATION = 'mcp.client.session.duration' as const;
/** Histogram (s) of MCP sessions as the server sees them, from connecting to the transport closing. */
export const METRIC_MCP_SERVER_SESSION_DURATION = 'mcp.server.session.duration' as const;
/** The prompt an MCP operation is about (`prompts/get`, a `completion/complete` of a prompt's argument). */
export const ATTR_GEN_AI_PROMPT_NAME = 'gen_ai.prompt.name' as const;
/** The resource URI of `resources/read`, `resources/subscribe`, `resources/unsubscribe`, `notifications/resources/updated`. */
export const ATTR_MCP_RESOURCE_URI = 'mcp.resource.uri' as const;
/** The bucket boundaries (s) the MCP semantic conventions advise for the operation and session durations. */
export const MCP_OPERATION_DURATION_BUCKETS: readonly number[] = Object.freeze([
  0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
]);

/** `error.type` of a tool that failed in its result (MCP `isError: true`): the MCP conventions' value. */
export const ERROR_TYPE_VALUE_TOOL_ERROR = 'tool_error' as const;

/** This package's own: whether a failed call was `reported` to the model or `rethrown`. */
export const ATTR_TOOL_CALL_ERROR_OUTCOME = 'tool_call.error.outcome' as const;
export const TOOL_CALL_ERROR_OUTCOME_VALUE_REPORTED = 'reported' as const;
export const TOOL_CALL_ERROR_OUTCOME_VALUE_RETHROWN = 'rethrown' as const;

/**
 * This package's own, on the span and on both metrics' failures: `model` for a call the framework
 * rejected before the tool ran (the model called it wrong: invalid input, an unknown tool). Absent for
 * the tool's own failures, so that their series are those of before.
 */
export const ATTR_TOOL_CALL_ERROR_SOURCE = 'tool_call.error.source' as const;
export const TOOL_CALL_ERROR_SOURCE_VALUE_MODEL = 'model' as const;
/** `gen_ai.tool.name` in metrics for a tool the app does not have: a model can invent any number of names. */
export const GEN_AI_TOOL_NAME_VALUE_UNKNOWN = '_unknown' as const;
/** `gen_ai.prompt.name` in the MCP server's metrics for a prompt it does not have: a client can ask for any name. */
export const GEN_AI_PROMPT_NAME_VALUE_UNKNOWN = '_unknown' as const;

/** Histogram (s) of tool call durations: the GenAI semantic convention's `execute_tool` metric. */
export const METRIC_GEN_AI_EXECUTE_TOOL_DURATION = 'gen_ai.execute_tool.duration' as const;
/** Counter ({error}) of failed tool calls: this package's own, with `tool_call.error.outcome`. */
export const METRIC_TOOL_CALL_ERRORS = 'tool_call.errors' as const;

/** The bucket boundaries (s) the GenAI semantic conventions advise for operation durations. */
export const GEN_AI_DURATION_BUCKETS: readonly number[] = Object.freeze([
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
]);

/** The conversation (session, thread) a call belongs to, when the framework gives one; never invented. */
export const ATTR_GEN_AI_CONVERSATION_ID = 'gen_ai.conversation.id' as const;

/**
 * This package's own, on a repeated call's span: how many calls of the same tool with the same
 * arguments came before it in its trace. Absent on a first call.
 */
export const ATTR_TOOL_CALL_REPEAT_COUNT = 'tool_call.repeat.count' as const;
/** Counter ({call}) of repeated calls (same tool, same arguments, same trace): this package's own. */
export const METRIC_TOOL_CALL_REPEATS = 'tool_call.repeats' as const;
/** Histogram (By) of a successful call's result as the model reads it: this package's own. */
export const METRIC_TOOL_CALL_RESULT_SIZE = 'tool_call.result.size' as const;
/** Bucket boundaries (By) of `tool_call.result.size`: 64 B to 4 MiB, by fours. */
export const TOOL_CALL_RESULT_SIZE_BUCKETS: readonly number[] = Object.freeze([
  64, 256, 1024, 4096, 16_384, 65_536, 262_144, 1_048_576, 4_194_304,
]);

/*
 * The decision names are proposed, not in the conventions: semantic-conventions-genai PR #535, unmerged
 * (genai main of 2026-08-15 has neither), in the `gen_ai.*` namespace the conventions keep for their own
 * names. They may change when it lands: this is the one place the package names them (src, tests and
 * docs use these constants or link docs/opentelemetry.md#decisions); a rename here also renames the
 * outcome's Prometheus label that the dashboard's approval panels read.
 */
/** The event name of a decision on a tool call (a log record): proposed (semantic-conventions-genai PR #535). */
export const EVENT_GEN_AI_TOOL_CALL_DECISION = 'gen_ai.tool.call.decision' as const;
/** What was decided: `allow`, `deny` or `require_approval`. Proposed (semantic-conventions-genai PR #535). */
export const ATTR_GEN_AI_TOOL_CALL_DECISION_OUTCOME = 'gen_ai.tool.call.decision.outcome' as const;
export const GEN_AI_TOOL_CALL_DECISION_OUTCOME_VALUE_ALLOW = 'allow' as const;
export const GEN_AI_TOOL_CALL_DECISION_OUTCOME_VALUE_DENY = 'deny' as const;
export const GEN_AI_TOOL_CALL_DECISION_OUTCOME_VALUE_REQUIRE_APPROVAL = 'require_approval' as const;
/**
 * The event name of a failed call's exception as a log record (`exceptionSignal` `'logs'`): this
 * package's own, named for what failed, as the conventions recommend over a generic `exception`.
 */
export const EVENT_TOOL_CALL_EXCEPTION = 'tool_call.exception' as const;
/** Histogram (s) of a wait for a decision inside one process (a permission callback): this package's own. */
export const METRIC_TOOL_CALL_APPROVAL_DURATION = 'tool_call.approval.duration' as const;
/** Bucket boundaries (s) of `tool_call.approval.duration`: a human's answer, half a second to an hour. */
export const TOOL_CALL_APPROVAL_DURATION_BUCKETS: readonly number[] = Object.freeze([
  0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600,
]);
