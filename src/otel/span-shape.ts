import { type Attributes, isSpanContextValid, type Link, type SpanContext, SpanKind } from '@opentelemetry/api';
import { logger } from '../internal/logger.js';
import type { RemoteCallError } from '../remote-call.js';
import type { ToolCallInfo } from '../tool-call-listener.js';
import { boundedAttribute } from './bounded-text.js';
import { errorMessageOf, errorTypeOf } from './error-type.js';
import { mcpSpanName } from './mcp-methods.js';
import { ATTR_JSONRPC_REQUEST_ID, ATTR_RPC_RESPONSE_STATUS_CODE } from './semconv.js';
import { executeToolSpanName } from './tool-span.js';

/**
 * How a call's span looks: `execute_tool {tool}`, kind `INTERNAL`, for an in-process call; for a call
 * that crosses a process boundary (`call.remote`), what its protocol's conventions ask (MCP:
 * `tools/call {tool}`, kind `CLIENT`/`SERVER`, `jsonrpc.request.id`, links). One place, so that a
 * listener that joins an existing span instead of starting one can take the same attributes.
 */
export interface SpanShape {
  readonly name: string;
  readonly kind: SpanKind;
  /** Attributes the shape adds to the call's own. */
  readonly attributes: Attributes;
  readonly links: Link[] | undefined;
}

const MAX_LINKS = 8;
const NO_ATTRIBUTES: Attributes = Object.freeze({});

export function spanShape(toolName: string, call: ToolCallInfo): SpanShape {
  const remote = readRemote(call);
  if (remote === undefined) {
    return {
      name: executeToolSpanName(toolName),
      kind: SpanKind.INTERNAL,
      attributes: NO_ATTRIBUTES,
      links: undefined,
    };
  }
  const attributes: Attributes = {};
  if (remote.requestId !== undefined) attributes[ATTR_JSONRPC_REQUEST_ID] = remote.requestId;
  return {
    name: mcpSpanName(remote.operation, toolName),
    kind: remote.side === 'client' ? SpanKind.CLIENT : SpanKind.SERVER,
    attributes,
    links: remote.links,
  };
}

/** A failure as recorded on the span and in the metrics. */
export interface FailureShape {
  /** `error.type` */
  readonly type: string;
  /** The span status description. */
  readonly message: string;
  /** `rpc.response.status_code`, for an error answer of the peer. */
  readonly statusCode: string | undefined;
}

/** The protocol's description of a failure where it has one, else the error's own `code`/`name`. */
export function failureShape(error: unknown, call: ToolCallInfo): FailureShape {
  const described = describeRemoteError(error, call);
  return {
    type: described?.type ?? errorTypeOf(error),
    message: described?.message ?? errorMessageOf(error),
    statusCode: described?.statusCode,
  };
}

/** The attributes a failure adds beside `error.type`: the peer's status code. */
export function failureAttributes(failure: FailureShape): Attributes {
  return failure.statusCode === undefined ? {} : { [ATTR_RPC_RESPONSE_STATUS_CODE]: failure.statusCode };
}

interface Remote {
  readonly side: 'client' | 'server';
  readonly operation: string;
  readonly requestId: string | undefined;
  readonly links: Link[] | undefined;
}

/** `call.remote`, each field checked: an adapter's bad value makes an in-process span, never a crash. */
function readRemote(call: ToolCallInfo): Remote | undefined {
  const remote = call.remote;
  if (remote === undefined) return undefined;
  try {
    const { side, operation, requestId, links } = remote;
    if ((side !== 'client' && side !== 'server') || typeof operation !== 'string' || operation.length === 0) {
      return undefined;
    }
    return {
      side,
      operation,
      requestId: typeof requestId === 'string' && requestId.length > 0 ? boundedAttribute(requestId) : undefined,
      links: Array.isArray(links) && links.length > 0 ? linksOf(links) : undefined,
    };
  } catch {
    return undefined;
  }
}

/** The valid span contexts of `contexts` as links, at most `MAX_LINKS`; none when none is valid. */
function linksOf(contexts: readonly unknown[]): Link[] | undefined {
  const valid = contexts.filter((link) => link && isSpanContextValid(link as SpanContext));
  return valid.length > 0
    ? valid.slice(0, MAX_LINKS).map((context) => ({ context: context as SpanContext }))
    : undefined;
}

function describeRemoteError(error: unknown, call: ToolCallInfo): RemoteCallError | undefined {
  try {
    const describe = call.remote?.describeError;
    if (typeof describe !== 'function') return undefined;
    const described = describe(error);
    if (described === undefined || described === null || typeof described.type !== 'string' || !described.type) {
      return undefined;
    }
    return {
      type: described.type,
      statusCode: typeof described.statusCode === 'string' ? described.statusCode : undefined,
      message: typeof described.message === 'string' ? errorMessageOf(described.message) : undefined,
    };
  } catch (describeFailure) {
    logger.error('describeError threw; recording the error as it is', describeFailure);
    return undefined;
  }
}
