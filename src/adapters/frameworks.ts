/** The `ToolCallInfo.framework` of the calls each adapter observes. */
export const FRAMEWORK_AI_SDK = 'ai-sdk' as const;
export const FRAMEWORK_MCP = 'mcp' as const;
export const FRAMEWORK_LANGCHAIN = 'langchain' as const;
export const FRAMEWORK_OPENAI_AGENTS = 'openai-agents' as const;
export const FRAMEWORK_ANTHROPIC = 'anthropic' as const;
export const FRAMEWORK_CLAUDE_AGENT_SDK = 'claude-agent-sdk' as const;
export const FRAMEWORK_MASTRA = 'mastra' as const;
export const FRAMEWORK_GOOGLE_ADK = 'google-adk' as const;
export const FRAMEWORK_LLAMAINDEX = 'llamaindex' as const;
export const FRAMEWORK_GENKIT = 'genkit' as const;
export const FRAMEWORK_OPENAI = 'openai' as const;
export const FRAMEWORK_GOOGLE_GENAI = 'google-genai' as const;
export const FRAMEWORK_PI_AGENT_CORE = 'pi-agent-core' as const;
export const FRAMEWORK_OPENROUTER = 'openrouter' as const;
export const FRAMEWORK_BEDROCK_AGENT_RUNTIME = 'bedrock-agent-runtime' as const;
