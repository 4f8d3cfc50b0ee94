import { setTimeout as sleep } from 'node:timers/promises';
import { functionToolCallback, type ToolCallback, type ToolCallListener, ToolCallListeners } from 'otel-tool-calls';

/** Waits about `ms` (±25%, like a real backend) or rejects when the run is aborted. */
const work = (ms: number, signal?: AbortSignal) => sleep(ms * (0.75 + Math.random() / 2), undefined, { signal });

const tools: ToolCallback<unknown, Promise<unknown>>[] = [
  functionToolCallback({ name: 'lookup_customer' }, async ({ email }: { email: string }, ctx) => {
    await work(700, ctx?.signal);
    return { email, customerId: 'C-2231', tier: 'gold' };
  }),
  functionToolCallback({ name: 'get_order' }, async ({ orderId }: { orderId: string }, ctx) => {
    await work(900, ctx?.signal);
    return { orderId, status: 'shipped', carrier: 'DHL', total: '84.90 EUR' };
  }),
  functionToolCallback({ name: 'track_shipment' }, async (_: { carrier: string; orderId: string }, ctx) => {
    await work(1600, ctx?.signal);
    return { location: 'Leipzig hub', eta: 'Thursday' };
  }),
  functionToolCallback({ name: 'refund_shipping_fee' }, async (_: { orderId: string; amount: string }, ctx) => {
    await work(1100, ctx?.signal);
    throw new Error('payment gateway timed out after 1s');
  }),
  functionToolCallback({ name: 'create_support_ticket' }, async (_: { customerId: string; summary: string }, ctx) => {
    await work(800, ctx?.signal);
    return { ticket: 'SUP-1042' };
  }),
];

type ToolCall = { id: string; name: string; input: unknown };

/** The scripted model: rounds of tool calls, then an answer; a failed refund makes it open a ticket. */
function model(step: number, results: Map<string, unknown>): ToolCall[] | string {
  const refund = results.get('call_4');
  switch (step) {
    case 0:
      return [
        { id: 'call_1', name: 'lookup_customer', input: { email: 'ada@example.com' } },
        { id: 'call_2', name: 'get_order', input: { orderId: '4711' } },
      ];
    case 1:
      return [{ id: 'call_3', name: 'track_shipment', input: { carrier: 'DHL', orderId: '4711' } }];
    case 2:
      return [{ id: 'call_4', name: 'refund_shipping_fee', input: { orderId: '4711', amount: '4.90 EUR' } }];
    case 3:
      if (typeof refund === 'string' && refund.includes('failed')) {
        return [
          {
            id: 'call_5',
            name: 'create_support_ticket',
            input: { customerId: 'C-2231', summary: 'Refund 4.90 EUR shipping fee by hand' },
          },
        ];
      }
      return 'Order 4711 arrives Thursday; the shipping fee is refunded.';
    default:
      return 'Order 4711 is at the Leipzig hub, arriving Thursday. The refund failed, so I opened ticket SUP-1042.';
  }
}

/** Runs the support agent with every tool call reported to `listener`; resolves to its answer. */
export async function runSupportAgent<Context>(listener: ToolCallListener<Context>, signal?: AbortSignal) {
  const byName = new Map(ToolCallListeners.wrapAll(tools, listener).map((t) => [t.getToolDefinition().name, t]));
  const results = new Map<string, unknown>();
  for (let step = 0; ; step++) {
    const turn = model(step, results);
    if (typeof turn === 'string') return turn;
    // The calls of one step run concurrently, as in agent frameworks.
    await Promise.all(
      turn.map(async ({ id, name, input }) => {
        results.set(id, await byName.get(name)?.call(input, { toolCallId: id, signal }));
      }),
    );
  }
}
