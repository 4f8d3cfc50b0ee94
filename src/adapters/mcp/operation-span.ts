import {
  type Context,
  context,
  type Span,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { logger } from '../../internal/logger.js';
import { boundedAttribute } from '../../otel/bounded-text.js';
import { errorMessageOf, errorTypeOf } from '../../otel/error-type.js';
import { mcpPromptOf, mcpResourceUriOf, mcpSpanName } from '../../otel/mcp-methods.js';
import { isCallersMistake } from '../../otel/mcp-server-status.js';
import type { OperationTelemetry } from '../../otel/operation-telemetry.js';
import { type McpSide, recordMcpOperationDuration } from '../../otel/remote-call-metrics.js';
import {
  ATTR_GEN_AI_PROMPT_NAME,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_RESOURCE_URI,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  GEN_AI_PROMPT_NAME_VALUE_UNKNOWN,
} from '../../otel/semconv.js';
import { ATTR_ERROR_TYPE } from '../../otel/stable-semconv.js';
import { addSessionAttributes, isProtocolVersion, type McpSessionFacts } from './attributes.js';
import { jsonRpcError } from './remote-call.js';

/*
 * An MCP operation that is not a tool call (`initialize`, `tools/list`, `resources/read`,
 * `prompts/get`, `ping`, `completion/complete`, notifications, ...): a span as the MCP conventions
 * ask, `{mcp.method.name} {target}` (the prompt's name for a prompt's operation; no target otherwise,
 * the resource URI only as `mcp.resource.uri`, the conventions keep it out of the name), kind CLIENT on
 * the side that sends it and SERVER on the side that handles it, and a `mcp.{side}.operation.duration`
 * sample. Recorded with the tracer and meter of the OpenTelemetry listener the adapter was given,
 * never through the listener: these are not tool calls. `tools/call` keeps its one span (the tool
 * call's own).
 */

// read once: on Node 20, `performance` is a lazy getter of the global object, dear on a hot path
const clock = globalThis.performance;

export interface Operation {
  readonly side: McpSide;
  readonly method: string;
  /** The request's or notification's `params`. */
  readonly params: unknown;
  /** The JSON-RPC id, when known when the operation starts (server side). */
  readonly requestId?: unknown;
  readonly session: McpSessionFacts;
  readonly parent: Context;
  readonly links?: readonly SpanContext[];
  /**
   * Server side: whether the server has the prompt of the operation. A prompt it does not have is
   * `_unknown` in the operation's metric (the span keeps the name): a client can ask for any name,
   * and each would be a metric series of its own.
   */
  readonly hasPrompt?: (name: string) => boolean;
}

/** Runs `run` inside the operation's span (so that it is what a client injects), ends it when `run` settles. */
export function observeOperation<T>(
  telemetry: OperationTelemetry,
  operation: Operation,
  run: (span: Span | undefined) => T,
): T {
  if (telemetry.recording?.() === false) return run(undefined);
  let span: Span;
  const startTime = clock.now();
  let attributes: Record<string, string | number>;
  try {
    attributes = operationAttributes(operation);
    span = telemetry.tracer.startSpan(
      mcpSpanName(operation.method, attributes[ATTR_GEN_AI_PROMPT_NAME] as string | undefined),
      {
        kind: operation.side === 'client' ? SpanKind.CLIENT : SpanKind.SERVER,
        attributes,
        links: operation.links?.map((context) => ({ context })),
      },
      operation.parent,
    );
  } catch (error) {
    logger.error(`could not start the span of MCP ${operation.method}; it is not recorded`, error);
    return run(undefined);
  }
  const end = (failed: boolean, outcome: unknown) => {
    try {
      if (failed) recordFailure(span, operation.side, attributes, outcome);
      else if (operation.method === 'initialize') recordNegotiated(span, attributes, outcome);
      span.end();
      const meter = telemetry.meter();
      if (meter !== undefined) {
        const seconds = (clock.now() - startTime) / 1000;
        recordMcpOperationDuration(meter, operation.side, seconds, metricAttributes(operation, attributes));
      }
    } catch (error) {
      logger.error(`could not record MCP ${operation.method}`, error);
    }
  };
  let result: T;
  try {
    result = context.with(trace.setSpan(operation.parent, span), run, undefined, span);
  } catch (error) {
    end(true, error);
    throw error;
  }
  if (isThenable(result)) {
    result.then(
      (value) => end(false, value),
      (error) => end(true, error),
    );
  } else {
    end(false, result);
  }
  return result;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}

/** The span's attributes as the metric takes them: a prompt the server does not have under one name. */
function metricAttributes(operation: Operation, attributes: Record<string, string | number>) {
  const prompt = attributes[ATTR_GEN_AI_PROMPT_NAME];
  if (typeof prompt !== 'string' || operation.hasPrompt === undefined || operation.hasPrompt(prompt)) return attributes;
  return { ...attributes, [ATTR_GEN_AI_PROMPT_NAME]: GEN_AI_PROMPT_NAME_VALUE_UNKNOWN };
}

function operationAttributes(operation: Operation): Record<string, string | number> {
  const { method, params, requestId } = operation;
  const attributes: Record<string, string | number> = { [ATTR_MCP_METHOD_NAME]: boundedAttribute(method) };
  if (typeof requestId === 'string' || typeof requestId === 'number') {
    attributes[ATTR_JSONRPC_REQUEST_ID] = boundedAttribute(String(requestId));
  }
  if (params !== null && typeof params === 'object') {
    try {
      const uri = mcpResourceUriOf(method, params);
      if (uri !== undefined) attributes[ATTR_MCP_RESOURCE_URI] = boundedAttribute(uri);
      const prompt = mcpPromptOf(method, params);
      if (prompt !== undefined) attributes[ATTR_GEN_AI_PROMPT_NAME] = boundedAttribute(prompt);
    } catch {
      // params whose getters throw: the operation is recorded without them
    }
  }
  addSessionAttributes(attributes, operation.session);
  return attributes;
}

/**
 * A JSON-RPC error answer by its code (and `rpc.response.status_code`), else the error's own type. On
 * the side that handled the request, an answer to the caller's mistake (`-32601`, `-32602`, ...) is
 * its status code alone: no error of this side (mcp-server-status.ts).
 */
function recordFailure(span: Span, side: McpSide, attributes: Record<string, string | number>, error: unknown): void {
  const described = jsonRpcError(error);
  if (described?.statusCode !== undefined) {
    attributes[ATTR_RPC_RESPONSE_STATUS_CODE] = described.statusCode;
    span.setAttribute(ATTR_RPC_RESPONSE_STATUS_CODE, described.statusCode);
    if (isCallersMistake(side, described.statusCode)) return;
  }
  const type = described?.type ?? errorTypeOf(error);
  attributes[ATTR_ERROR_TYPE] = type;
  span.setAttribute(ATTR_ERROR_TYPE, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: described?.message ?? errorMessageOf(error) });
}

/** `initialize` settles the protocol version: recorded on its own span when it was not known before. */
function recordNegotiated(span: Span, attributes: Record<string, string | number>, result: unknown): void {
  if (attributes[ATTR_MCP_PROTOCOL_VERSION] !== undefined || result === null || typeof result !== 'object') return;
  const version = (result as { protocolVersion?: unknown }).protocolVersion;
  if (!isProtocolVersion(version)) return;
  attributes[ATTR_MCP_PROTOCOL_VERSION] = version;
  span.setAttribute(ATTR_MCP_PROTOCOL_VERSION, version);
}
