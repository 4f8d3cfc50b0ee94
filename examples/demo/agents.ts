// The simulated agents: what each one asks, which tools it calls in which order, and the listener
// (agent name, error policies) its tool calls are observed by.
import { type ErrorPolicy, OpenTelemetryToolCallListener } from 'otel-tool-calls';
import { CUSTOMER_DOMAIN, type DemoToolName } from './tools.js';

export interface PlannedCall {
  /** One of the demo's tools, or, for a call the model gets wrong, a name the app does not have. */
  readonly toolName: string;
  readonly input: Readonly<Record<string, string>>;
}

/** The model's script for one run: a list of steps; the calls of one step run in parallel. */
export type Plan = readonly (readonly PlannedCall[])[];

export interface Agent {
  readonly name: string;
  readonly prompt: string;
  /** What observes this agent's tool calls: its name, the error policies. */
  readonly listener: OpenTelemetryToolCallListener;
  /** A fresh, randomized script for the next run. */
  plan(): Plan;
}

/**
 * Most failures are reported to the model as the tool result, so it can answer anyway; those that
 * must not be papered over are rethrown (the AI SDK then hands the model its own error text, and
 * another framework would stop the run). Either way the span and the metrics record the error.
 */
const errorPolicy: ErrorPolicy = 'report';
const toolErrorPolicies: Record<string, ErrorPolicy> = {
  // a timeout is worth telling the model (it may try another page); a reset is a bug to surface
  fetch_url: (error) => ((error as { code?: unknown })?.code === 'ETIMEDOUT' ? 'report' : 'rethrow'),
  send_email: 'rethrow',
  legacy_crm: 'rethrow',
};
/** What a policy function decides, in words, for the summary. */
const policyFunctionDescriptions: Record<string, string> = { fetch_url: 'report timeouts, rethrow resets' };

/** A tool's error policy as the summary prints it (`_unknown`, the tools the app does not have: the default). */
export function errorPolicyOf(toolName: string): string {
  const policy = toolErrorPolicies[toolName] ?? errorPolicy;
  return typeof policy === 'function' ? (policyFunctionDescriptions[toolName] ?? 'a function') : policy;
}

/** The share of research runs whose model searches its topic a second time (`tool_call.repeats`). */
export const REPEAT_SEARCH_SHARE = 0.25;

const call = (toolName: DemoToolName, input: Record<string, string>): PlannedCall => ({ toolName, input });
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const times = <T>(min: number, max: number, make: (index: number) => T): T[] =>
  Array.from({ length: min + Math.floor(Math.random() * (max - min + 1)) }, (_, index) => make(index));
const customerId = () => `C-${1000 + Math.floor(Math.random() * 9000)}`;
const topics = ['OpenTelemetry GenAI conventions', 'p95 latency budgets', 'MCP servers', 'agent evals'];

const profiles: Array<Omit<Agent, 'listener'>> = [
  {
    name: 'research-agent',
    prompt: 'Research a topic and cite sources',
    plan: () => {
      const topic = pick(topics);
      return [
        times(1, 2, (i) => call('web_search', { query: i === 0 ? topic : `${topic} benchmarks` })),
        times(2, 3, (i) => call('fetch_url', { url: `https://site${i + 1}.example.com/${encodeURIComponent(topic)}` })),
        [call('sql_query', { sql: 'SELECT title FROM citations ORDER BY created_at DESC LIMIT 10' })],
        // now and then the model searches again for what it already found: a repeated call
        ...(Math.random() < REPEAT_SEARCH_SHARE ? [[call('web_search', { query: topic })]] : []),
      ];
    },
  },
  {
    name: 'support-agent',
    prompt: 'Answer a customer ticket',
    plan: () => {
      const id = customerId();
      return [
        [
          call('sql_query', { sql: `SELECT * FROM orders WHERE customer_id = '${id}'` }),
          call('legacy_crm', { customerId: id }),
        ],
        [call('send_email', { to: `${id.toLowerCase()}${CUSTOMER_DOMAIN}`, subject: 'About your order' })],
      ];
    },
  },
  {
    name: 'billing-agent',
    prompt: 'Reconcile yesterday’s payments',
    plan: () => [
      times(2, 3, (i) => call('sql_query', { sql: `SELECT sum(amount) FROM payments WHERE shard = ${i}` })),
      [call('fetch_url', { url: 'https://status.payments.example.com/api/v2/status.json' })],
      ...(Math.random() < 0.5 ? [[call('send_email', { to: 'finance@example.com', subject: 'Reconciliation' })]] : []),
    ],
  },
];

/** `count` agents cycling through the profiles: agent i is profile i mod 3, sharing its name. */
export function createAgents(count: number): Agent[] {
  const observed = profiles.map((profile) => ({
    ...profile,
    listener: new OpenTelemetryToolCallListener({ agentName: profile.name, errorPolicy, toolErrorPolicies }),
  }));
  return Array.from({ length: count }, (_, index) => observed[index % observed.length] as Agent);
}
