import { BedrockAgentRuntime, BedrockAgentRuntimeClient } from '@aws-sdk/client-bedrock-agent-runtime';
import type { ToolCallListener } from 'otel-tool-calls';
import { instrumentClient } from 'otel-tool-calls/bedrock-agent-runtime';
import { describe, expectTypeOf, it } from 'vitest';

const listener: ToolCallListener<{ startedAt: number }> = { beforeCall: () => ({ startedAt: 0 }) };

describe('instrumentClient (Bedrock agent runtime) types', () => {
  it('returns exactly the type of the client it was given', () => {
    expectTypeOf(
      instrumentClient(new BedrockAgentRuntimeClient({}), listener),
    ).toEqualTypeOf<BedrockAgentRuntimeClient>();
    expectTypeOf(instrumentClient(new BedrockAgentRuntime({}), listener)).toEqualTypeOf<BedrockAgentRuntime>();
  });
});
