import { logger } from '../../internal/logger.js';
import type { ToolCallListener } from '../../tool-call-listener.js';
import { watchedCompletion } from './completion-events.js';
import { openCallsOf } from './open-calls.js';
import { answersOf, invocationOf, RETURN_CONTROL_COMMANDS, sessionOf } from './return-control.js';

/*
 * Where the adapter sits: a middleware of the client's own stack (the SDK's extension point; step
 * `initialize`, where the command's input is the app's and its output the deserialized response),
 * for `InvokeAgent` and `InvokeInlineAgent` only. Before the request goes: the results it sends end
 * the session's open calls (open-calls.ts). Once the response is there: its `completion` is watched,
 * and each `returnControl` event the app is handed opens its calls.
 */

/** The middleware's name in the client's stack. */
export const MIDDLEWARE_NAME = 'otelToolCallsReturnControl';

type Handler = (args: { input?: unknown }) => Promise<{ output?: unknown }>;
type Middleware = (next: Handler, context: { commandName?: unknown }) => Handler;

/** The middleware; `listenerOf` gives the listener of each command (none: the command passes unobserved). */
export function returnControlMiddleware(listenerOf: () => ToolCallListener<unknown> | undefined): Middleware {
  return (next, context) =>
    async function observedReturnControl(args) {
      const commandName = typeof context?.commandName === 'string' ? context.commandName : '';
      const listener = RETURN_CONTROL_COMMANDS.has(commandName) ? listenerOf() : undefined;
      const session = listener === undefined ? undefined : sessionOf(commandName, args?.input);
      if (listener === undefined || session === undefined) return next(args);
      const calls = openCallsOf(listener);
      try {
        const { invocationId, results, endSession } = answersOf(commandName, args.input);
        calls.answer(session.key, invocationId, results, endSession);
      } catch (error) {
        logger.error('the results this Bedrock agent request sends could not be observed', error);
      }
      const result = await next(args);
      try {
        const output = result?.output as { completion?: unknown } | undefined;
        if (output !== null && typeof output === 'object' && output.completion !== undefined) {
          output.completion = watchedCompletion(output.completion, (event) => {
            const invocation = invocationOf(event);
            if (invocation !== undefined)
              calls.open(session.key, session.sessionId, invocation.invocationId, invocation.inputs);
          });
        }
      } catch (error) {
        logger.error('this Bedrock agent response could not be watched for a return of control', error);
      }
      return result;
    };
}
