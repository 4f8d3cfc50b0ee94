/*
 * The return of control as `@aws-sdk/client-bedrock-agent-runtime` 3.x carries it (its
 * dist-types/models), read defensively (a getter that throws gives no fact, never an error in the app):
 * - a `returnControl` event of the `completion` stream of `InvokeAgent` / `InvokeInlineAgent`:
 *   `{ invocationId, invocationInputs: [{ functionInvocationInput: { actionGroup, function,
 *   parameters: [{ name, type, value }], agentId? } } | { apiInvocationInput: { actionGroup,
 *   httpMethod, apiPath, parameters, requestBody: { content: { [type]: { properties } } }, agentId? } }] }`:
 *   the calls the agent hands the app;
 * - the next request of the same session: `sessionState` (`inlineSessionState` for an inline agent)
 *   `{ invocationId, returnControlInvocationResults: [{ functionResult: { actionGroup, function,
 *   responseBody: { TEXT: { body } }, responseState?: 'FAILURE' | 'REPROMPT', agentId? } } |
 *   { apiResult: { actionGroup, httpMethod, apiPath, responseBody, responseState?, agentId? } }] }`,
 *   and `endSession`.
 * A session is the request's `sessionId`, with the agent and alias for `InvokeAgent`.
 */

/** The two commands of a return of control. */
export const RETURN_CONTROL_COMMANDS = new Set(['InvokeAgentCommand', 'InvokeInlineAgentCommand']);

/** One call the agent hands the app. */
export interface InvocationInput {
  /** The function, or `<method> <path>` for an API action group. */
  readonly name: string;
  readonly actionGroup: string | undefined;
  readonly function: string | undefined;
  readonly httpMethod: string | undefined;
  readonly apiPath: string | undefined;
  readonly agentId: string | undefined;
  /** What the app is asked to run with: the parameters by name (and an API call's request body). */
  readonly input: unknown;
}

/** The app's answer to one call. */
export interface InvocationResult {
  readonly actionGroup: string | undefined;
  readonly function: string | undefined;
  readonly httpMethod: string | undefined;
  readonly apiPath: string | undefined;
  readonly agentId: string | undefined;
  /** `responseState: 'FAILURE'`. */
  readonly failed: boolean;
  /** The response body the agent reads (`responseBody.TEXT.body`, the first content type's body). */
  readonly text: string | undefined;
  readonly responseBody: unknown;
}

type Fields = Record<string, unknown>;

const fieldsOf = (value: unknown): Fields | undefined =>
  value !== null && typeof value === 'object' ? (value as Fields) : undefined;
const stringOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The session of a request: its key among sessions, and the id Bedrock knows it by. */
export function sessionOf(commandName: string, input: unknown): { key: string; sessionId: string } | undefined {
  try {
    const fields = fieldsOf(input);
    const sessionId = stringOf(fields?.sessionId);
    if (sessionId === undefined) return undefined;
    if (commandName === 'InvokeInlineAgentCommand') return { key: `inline\u0000${sessionId}`, sessionId };
    return { key: `${String(fields?.agentId)}\u0000${String(fields?.agentAliasId)}\u0000${sessionId}`, sessionId };
  } catch {
    return undefined;
  }
}

/** The calls of a `returnControl` event, and its invocation id. */
export function invocationOf(
  event: unknown,
): { invocationId: string | undefined; inputs: InvocationInput[] } | undefined {
  try {
    const returnControl = fieldsOf(fieldsOf(event)?.returnControl);
    if (returnControl === undefined) return undefined;
    const inputs = Array.isArray(returnControl.invocationInputs) ? returnControl.invocationInputs : [];
    return {
      invocationId: stringOf(returnControl.invocationId),
      inputs: inputs.flatMap((member) => {
        const input = invocationInputOf(member);
        return input === undefined ? [] : [input];
      }),
    };
  } catch {
    return undefined;
  }
}

function invocationInputOf(member: unknown): InvocationInput | undefined {
  const fields = fieldsOf(member);
  const fn = fieldsOf(fields?.functionInvocationInput);
  if (fn !== undefined) {
    const name = stringOf(fn.function);
    if (name === undefined) return undefined;
    return {
      name,
      actionGroup: stringOf(fn.actionGroup),
      function: name,
      httpMethod: undefined,
      apiPath: undefined,
      agentId: stringOf(fn.agentId),
      input: parametersOf(fn.parameters),
    };
  }
  const api = fieldsOf(fields?.apiInvocationInput);
  if (api === undefined) return undefined;
  const httpMethod = stringOf(api.httpMethod);
  const apiPath = stringOf(api.apiPath);
  if (apiPath === undefined) return undefined;
  const content = fieldsOf(fieldsOf(api.requestBody)?.content);
  const [body] = content === undefined ? [] : Object.values(content);
  return {
    name: httpMethod === undefined ? apiPath : `${httpMethod} ${apiPath}`,
    actionGroup: stringOf(api.actionGroup),
    function: undefined,
    httpMethod,
    apiPath,
    agentId: stringOf(api.agentId),
    input: {
      parameters: parametersOf(api.parameters),
      ...(body === undefined ? {} : { requestBody: parametersOf(fieldsOf(body)?.properties) }),
    },
  };
}

/** `[{ name, value }]` as `{ name: value }`. */
function parametersOf(list: unknown): Record<string, unknown> {
  const parameters: Record<string, unknown> = {};
  if (!Array.isArray(list)) return parameters;
  for (const parameter of list) {
    const name = stringOf(fieldsOf(parameter)?.name);
    if (name !== undefined) parameters[name] = fieldsOf(parameter)?.value;
  }
  return parameters;
}

/** What a request sends back: the results, the invocation they answer, and whether it ends the session. */
export function answersOf(
  commandName: string,
  input: unknown,
): { invocationId: string | undefined; results: InvocationResult[]; endSession: boolean } {
  try {
    const fields = fieldsOf(input);
    const state = fieldsOf(
      commandName === 'InvokeInlineAgentCommand' ? fields?.inlineSessionState : fields?.sessionState,
    );
    const results = Array.isArray(state?.returnControlInvocationResults) ? state.returnControlInvocationResults : [];
    return {
      invocationId: stringOf(state?.invocationId),
      results: results.flatMap((member) => {
        const result = invocationResultOf(member);
        return result === undefined ? [] : [result];
      }),
      endSession: fields?.endSession === true,
    };
  } catch {
    return { invocationId: undefined, results: [], endSession: false };
  }
}

function invocationResultOf(member: unknown): InvocationResult | undefined {
  const fields = fieldsOf(member);
  const result = fieldsOf(fields?.functionResult) ?? fieldsOf(fields?.apiResult);
  if (result === undefined) return undefined;
  const bodies = fieldsOf(result.responseBody);
  const [content] = bodies === undefined ? [] : Object.values(bodies);
  return {
    actionGroup: stringOf(result.actionGroup),
    function: stringOf(result.function),
    httpMethod: stringOf(result.httpMethod),
    apiPath: stringOf(result.apiPath),
    agentId: stringOf(result.agentId),
    failed: result.responseState === 'FAILURE',
    text: stringOf(fieldsOf(content)?.body),
    responseBody: result.responseBody,
  };
}

/** Whether `result` answers `input`: the same action group and function (or API operation), and agent when both name one. */
export function answers(result: InvocationResult, input: InvocationInput): boolean {
  if (result.actionGroup !== input.actionGroup) return false;
  if (result.agentId !== undefined && input.agentId !== undefined && result.agentId !== input.agentId) return false;
  if (input.function !== undefined) return result.function === input.function;
  return result.apiPath === input.apiPath && (result.httpMethod ?? input.httpMethod) === input.httpMethod;
}
