/**
 * `npm run stack`: the stack of docker-compose.otel.yml without Docker (Grafana aside), from the binaries
 * scripts/services.sh builds, on 127.0.0.1 with the compose file's ports and the same config files. Runs in
 * the foreground and prints `stack ready` with the endpoints once every service answers its health check;
 * SIGINT or SIGTERM stops every process it started.
 *
 *   npm run stack                          # data (traces, metrics, alerts' state) and logs in .stack/
 *   npm run stack -- --data-dir /tmp/stack
 *   npm run stack -- --samplers 3          # and the scale-out tier: a load balancer, 3 tail-sampling gateways
 */
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readComposeServices, repoRoot } from './compose-file.js';
import { missingBinaries, missingBinariesMessage, type RunningStack, StackError, startStack } from './stack.js';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: join(repoRoot, '.stack') },
    samplers: { type: 'string', default: '0' },
    help: { type: 'boolean' },
  },
});
if (values.help) {
  console.log(
    'npm run stack [-- --data-dir <dir>] [--samplers <n>]: the compose stack from the binaries of scripts/services.sh;\n' +
      '--samplers n adds the scale-out tier (the compose profile scale-out): a load balancer routing traces by ID to n gateways',
  );
  process.exit(0);
}
const samplers = Number(values.samplers);
if (!Number.isInteger(samplers) || samplers < 0 || samplers > 64) {
  console.error(`stack: --samplers takes a whole number from 0 to 64, not ${JSON.stringify(values.samplers)}`);
  process.exit(1);
}

/** The compose file's published ports, each free on 127.0.0.1, or a StackError naming the ones that are not. */
async function checkPublishedPorts(): Promise<void> {
  const taken: string[] = [];
  for (const service of readComposeServices().values()) {
    if (service.name === 'grafana') continue;
    for (const { host } of service.ports) {
      const free = await new Promise<boolean>((resolve) => {
        const server = createServer();
        server.once('error', () => resolve(false));
        server.listen(host, '127.0.0.1', () => server.close(() => resolve(true)));
      });
      if (!free) taken.push(`${host} (${service.name})`);
    }
  }
  if (taken.length > 0) {
    throw new StackError(
      `port ${taken.join(', ')} in use on 127.0.0.1: is the compose stack (docker compose -f docker-compose.otel.yml up) ` +
        'or another `npm run stack` running? Stop it first.',
    );
  }
}

let stack: RunningStack | undefined;
let stopping = false;
async function stopAndExit(code: number, why: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`stack: ${why}: stopping every service`);
  await stack?.stop();
  console.log('stack stopped');
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stopAndExit(0, signal));

try {
  const missing = missingBinaries();
  if (missing.length > 0) throw new StackError(missingBinariesMessage(missing));
  await checkPublishedPorts();
  console.log(
    `stack: starting the collector, Jaeger, Prometheus, Alertmanager${samplers > 0 ? `, a load balancer and ${samplers} gateways` : ''}`,
  );
  stack = await startStack({ dataDir: values['data-dir'], samplers });
} catch (error) {
  if (error instanceof StackError) {
    console.error(`stack: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
if (stopping) await new Promise(() => {}); // a signal came during the start: its handler ends the process

const { endpoints } = stack;
console.log(
  [
    'stack ready',
    `  OTLP (collector)  ${endpoints.otlpHttp} (HTTP), ${endpoints.otlpGrpc} (gRPC): OTEL_EXPORTER_OTLP_ENDPOINT=${endpoints.otlpHttp}`,
    `  Jaeger            ${endpoints.jaeger}`,
    `  Prometheus        ${endpoints.prometheus} (scrapes an app's own /metrics on 127.0.0.1:9464 too)`,
    `  Alertmanager      ${endpoints.alertmanager}`,
    ...(samplers > 0
      ? [
          `  scale-out         the collector's traces → load balancer ${stack.address('load-balancer', 4317)} → ` +
            `${samplers} gateways (tail sampling) → Jaeger`,
        ]
      : []),
    `  logs              ${stack.logsDir} (collector.log: the decision log records)`,
    '  Grafana is not run without Docker: docker compose -f docker-compose.otel.yml up -d grafana, or any Grafana with',
    `  observability/grafana/ and its Prometheus datasource at ${endpoints.prometheus}`,
    'Ctrl-C stops every service.',
  ].join('\n'),
);

// a service that dies while the stack runs: say which, with the end of its output, and stop the others
const watch = setInterval(() => {
  for (const [name, service] of stack?.services ?? []) {
    if (service.exited() && !stopping) {
      clearInterval(watch);
      console.error(`stack: ${name} exited; the end of its output:\n${service.log().slice(-2_000)}`);
      void stopAndExit(1, `${name} exited`);
    }
  }
}, 1_000);
