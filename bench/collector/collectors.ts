/**
 * The tier's collectors, started one by one from the binary scripts/services.sh builds, with the repository's
 * configs (observability/collector/gateway.yaml, load-balancer.yaml) as they are: only their variables are
 * set (listen host, free ports, queue folder, backend, decision wait), as the stack and the tests set them.
 */
import { accessSync, constants, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { configVariables } from '../../scripts/stack/config-variables.js';
import { answers, startServerProcess } from '../../scripts/stack/server-process.js';
import { servicesBinDir } from '../../scripts/stack/services-bin.js';
import { freePort } from '../lib/free-port.js';
import { type MetricSum, scrapeMetrics } from './collector-metrics.js';

export const COLLECTOR_BINARY = 'otelcol-tool-calls';

/** The built collector, else why it is missing and how to build it. */
export function builtCollector(): { path: string } | { missing: string } {
  const path = join(servicesBinDir(), COLLECTOR_BINARY);
  try {
    accessSync(path, constants.X_OK);
    return { path };
  } catch {
    return {
      missing:
        `${COLLECTOR_BINARY} is not in ${servicesBinDir()}: \`bash scripts/services.sh\` builds it ` +
        '(Go and the module proxy; OTEL_TOOL_CALLS_SERVICES_BIN names another folder)',
    };
  }
}

export type CollectorRole = 'gateway' | 'load-balancer';

export interface RunningCollector {
  readonly name: string;
  readonly pid: number;
  /** `http://127.0.0.1:<port>`: its OTLP/HTTP receiver. */
  readonly otlpHttp: string;
  /** `127.0.0.1:<port>`: its OTLP/gRPC receiver. */
  readonly otlpGrpc: string;
  metrics(): Promise<MetricSum>;
  stop(): Promise<void>;
}

export interface CollectorLaunch {
  readonly root: string;
  readonly binary: string;
  readonly name: string;
  readonly role: CollectorRole;
  /** Its queue folder and log go under this folder. */
  readonly dataDir: string;
  /** The config's variables besides the ports, the listen host and the queue folder. */
  readonly env: NodeJS.ProcessEnv;
}

export async function startCollector(launch: CollectorLaunch): Promise<RunningCollector> {
  const config = join(launch.root, 'observability', 'collector', `${launch.role}.yaml`);
  const ports: Record<string, string> = {};
  for (const { name } of configVariables(config)) {
    if (name.endsWith('_PORT') && ports[name] === undefined) ports[name] = String(await freePort());
  }
  const port = (name: string) => {
    const value = ports[name];
    if (value === undefined) throw new Error(`${config} has no ${name} variable`);
    return value;
  };
  const queue = join(launch.dataDir, launch.name);
  mkdirSync(queue, { recursive: true });
  const server = await startServerProcess(launch.name, launch.binary, [`--config=${config}`], {
    env: { COLLECTOR_LISTEN_HOST: '127.0.0.1', COLLECTOR_STORAGE_DIR: queue, ...ports, ...launch.env },
    ready: () => answers(`http://127.0.0.1:${port('COLLECTOR_HEALTH_PORT')}/status`),
    logFile: join(launch.dataDir, `${launch.name}.log`),
  });
  if (server.pid === undefined) throw new Error(`${launch.name} has no process id`);
  const metricsUrl = `http://127.0.0.1:${port('COLLECTOR_METRICS_PORT')}/metrics`;
  return {
    name: launch.name,
    pid: server.pid,
    otlpHttp: `http://127.0.0.1:${port('COLLECTOR_OTLP_HTTP_PORT')}`,
    otlpGrpc: `127.0.0.1:${port('COLLECTOR_OTLP_GRPC_PORT')}`,
    metrics: () => scrapeMetrics(metricsUrl),
    stop: () => server.stop(),
  };
}
