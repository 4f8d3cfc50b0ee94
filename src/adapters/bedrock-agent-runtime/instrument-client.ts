import { logger } from '../../internal/logger.js';
import { isObserved, markObserved } from '../../internal/observed-marker.js';
import { assertListener, describe } from '../../internal/validate.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { MIDDLEWARE_NAME, returnControlMiddleware } from './return-control-middleware.js';

/**
 * Observes the calls a Bedrock agent hands the app (return of control) through this client of
 * `@aws-sdk/client-bedrock-agent-runtime`: each call of a `returnControl` event of `InvokeAgent` or
 * `InvokeInlineAgent` is one span, from the event the app is handed to the results it sends back with
 * the session's next request, with the `invocationId` as its call id; a result with
 * `responseState: 'FAILURE'` is its error. A middleware is added to the client's own stack; nothing
 * else of the client, the commands or the responses the app reads changes. Returns the same client.
 *
 * @example
 * const client = instrumentClient(new BedrockAgentRuntimeClient({ region }), listener);
 */
export function instrumentClient<Client extends object, Context = unknown>(
  client: Client,
  listener: ToolCallListener<Context>,
): Client {
  const stack = (client as { middlewareStack?: { add?: unknown } } | null)?.middlewareStack;
  if (stack === null || typeof stack !== 'object' || typeof stack.add !== 'function') {
    throw new TypeError(
      `instrumentClient: \`client\` must be a BedrockAgentRuntimeClient (with a middlewareStack), got ${describe(client)}`,
    );
  }
  assertListener(listener, 'instrumentClient');
  if (isObserved(client)) {
    logger.warn('instrumentClient: this Bedrock agent runtime client is observed already; its first listener stays');
    return client;
  }
  (stack.add as (middleware: unknown, options: object) => void).call(
    stack,
    returnControlMiddleware(() => listener as ToolCallListener<unknown>),
    { step: 'initialize', name: MIDDLEWARE_NAME, override: true },
  );
  return markObserved(client);
}
