/**
 * The stable OpenTelemetry semantic-convention names this package writes (`error.type`, `exception.*`, the
 * `server.*`/`client.*`/`network.*` attributes of MCP operations, the `service.*` resource
 * attributes), as `@opentelemetry/semantic-conventions` names them. Copied here rather than
 * imported, so that this package has no runtime dependency but `@opentelemetry/api`: the
 * semantic-conventions package's ES module entry alone is seven modules, about 1 MB of each process
 * that loads this package as ES modules (the SDK's CommonJS packages load its CommonJS build, a
 * second copy). Stable names do not change; `test/otel/stable-semconv.test.ts` checks each against
 * the package's own constant.
 */
export const ATTR_ERROR_TYPE = 'error.type' as const;
/** `error.type` when the error has no better type. */
export const ERROR_TYPE_VALUE_OTHER = '_OTHER' as const;

/** A failed call's exception, on its log record (`exceptionSignal` `'logs'`). */
export const ATTR_EXCEPTION_TYPE = 'exception.type' as const;
export const ATTR_EXCEPTION_MESSAGE = 'exception.message' as const;
export const ATTR_EXCEPTION_STACKTRACE = 'exception.stacktrace' as const;

export const ATTR_SERVICE_NAME = 'service.name' as const;
export const ATTR_SERVICE_VERSION = 'service.version' as const;
export const ATTR_SERVICE_INSTANCE_ID = 'service.instance.id' as const;

export const ATTR_SERVER_ADDRESS = 'server.address' as const;
export const ATTR_SERVER_PORT = 'server.port' as const;
export const ATTR_CLIENT_ADDRESS = 'client.address' as const;
export const ATTR_CLIENT_PORT = 'client.port' as const;
export const ATTR_NETWORK_PROTOCOL_NAME = 'network.protocol.name' as const;
export const ATTR_NETWORK_PROTOCOL_VERSION = 'network.protocol.version' as const;
export const ATTR_NETWORK_TRANSPORT = 'network.transport' as const;
export const NETWORK_TRANSPORT_VALUE_PIPE = 'pipe' as const;
export const NETWORK_TRANSPORT_VALUE_TCP = 'tcp' as const;
