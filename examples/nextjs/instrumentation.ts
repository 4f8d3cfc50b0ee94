// Next.js runs register() once when the server starts, before any route loads.
export async function register() {
  // the SDK (its exporters, Node's module hooks) needs Node.js; the edge runtime gets no telemetry here
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // `npm run start:register` starts it with NODE_OPTIONS=--import otel-tool-calls/register instead
  if (process.env.OTEL_TOOL_CALLS_SETUP === 'register') return;
  const { registerTelemetry } = await import('./telemetry');
  registerTelemetry();
}
