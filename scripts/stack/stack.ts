/**
 * The services of docker-compose.otel.yml (Grafana aside), run from the binaries scripts/services.sh builds,
 * on 127.0.0.1, with the same config files: `npm run stack` (scripts/stack/main.ts) and the observability
 * tests start it through `startStack`.
 *
 * What compose does with its network, this does with ports on 127.0.0.1:
 * - a published port (`4318:4318`) is that port on 127.0.0.1 (`ports: 'compose'`) or a free one (`'free'`,
 *   the tests); a port only the other services reach (Jaeger's OTLP receiver, the collector's metrics
 *   endpoint) is a free one;
 * - a collector config's `${env:NAME:-default}` gets a value for this machine when its default is one:
 *   `0.0.0.0` is 127.0.0.1, a `*_PORT` is the port chosen for it, `service:port` and
 *   `http://service:port/...` are that service's address here, a path in a named volume or mount is its
 *   folder here; every other default stays;
 * - Prometheus' config (no variables) is written again with the addresses of the services here, its rule
 *   files by their paths in the repository;
 * - a command's container paths are their files and folders here, a named volume a folder of `dataDir`.
 */
import { accessSync, constants, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { type ComposeService, hostPath, readComposeServices } from './compose-file.js';
import { configVariables } from './config-variables.js';
import { freePort } from './free-port.js';
import { gatewayNumbered, isGateway, LOAD_BALANCER, scaleOutServices } from './scale-out.js';
import { answers, type ServerProcess, startServerProcess } from './server-process.js';
import { servicesBinDir } from './services-bin.js';

/** The binary scripts/services.sh builds for each image of the compose file. */
const BINARIES: Readonly<Record<string, string>> = {
  'otel/opentelemetry-collector-contrib': 'otelcol-tool-calls',
  'jaegertracing/jaeger': 'jaeger',
  'prom/prometheus': 'prometheus',
  'prom/alertmanager': 'alertmanager',
};
/** Not run here: the dashboard is checked by running its queries on the stack's Prometheus. */
const NOT_RUN = new Set(['grafana']);

export interface StackOptions {
  /** Where the named volumes' data, the logs and the generated Prometheus config go. */
  readonly dataDir: string;
  /** `'compose'`: the compose file's published ports on 127.0.0.1 (`npm run stack`); `'free'`: free ports. @default 'compose' */
  readonly ports?: 'compose' | 'free';
  /** The targets of the job that scrapes an app's own /metrics (compose: `host.docker.internal:9464`). @default ['127.0.0.1:9464'] */
  readonly appMetricsTargets?: readonly string[];
  /** Prometheus' scrape and evaluation interval instead of prometheus.yml's (the tests: `'1s'`). @default prometheus.yml's */
  readonly interval?: string;
  /** Rule files of prometheus.yml (as it names them) replaced by others (the tests: SLO rules with short waits). @default {} */
  readonly ruleFileOverrides?: Readonly<Record<string, string>>;
  /** The folder of the built binaries. @default scripts/services.sh's */
  readonly binDir?: string;
  /** Bound on each service's wait until healthy. @default 60_000 */
  readonly readyTimeoutMs?: number;
  /**
   * The scale-out tier with this many gateways (tail samplers) behind its load balancer (the compose file's
   * `scale-out` profile): the collector's traces then go to the load balancer. @default 0: no tier
   */
  readonly samplers?: number;
  /** Variables for a service besides the stack's (the tests: a gateway's short decision wait). @default none */
  readonly serviceEnv?: (service: string) => NodeJS.ProcessEnv | undefined;
}

export interface StackEndpoints {
  /** The collector's OTLP/HTTP receiver: an app's OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly otlpHttp: string;
  /** The collector's OTLP/gRPC receiver (`host:port`). */
  readonly otlpGrpc: string;
  readonly jaeger: string;
  readonly prometheus: string;
  readonly alertmanager: string;
}

export interface RunningStack {
  readonly endpoints: StackEndpoints;
  /** `<dataDir>/logs`: each service's output (the collector's holds the decision log records). */
  readonly logsDir: string;
  /** The running services by their compose name. */
  readonly services: ReadonlyMap<string, ServerProcess>;
  /** `127.0.0.1:<port>` where a service's container port is here. */
  address(service: string, containerPort: number): string;
  /**
   * Ends a service with `signal` (SIGKILL: as a crash, nothing flushed) and starts it again with the same
   * ports, data and logs, once it is gone; resolves when it answers again.
   */
  restart(service: string, signal?: NodeJS.Signals): Promise<void>;
  /**
   * The scale-out tier with one gateway more: the new one started, then the load balancer started again
   * with it in its list (the static resolver's way). Resolves with the new gateway's name.
   */
  addSampler(): Promise<string>;
  /** Stops every process it started; idempotent. */
  stop(): Promise<void>;
}

/** A clear error for what the user must fix first (a binary to build, a port in use). */
export class StackError extends Error {
  override readonly name = 'StackError' as const;
}

/** The binaries the stack needs that are missing from `binDir`. */
export function missingBinaries(binDir = servicesBinDir()): string[] {
  const binaries = [...readComposeServices().values()]
    .filter((service) => !NOT_RUN.has(service.name))
    .map((service) => binaryOf(service));
  // each once: the collector's binary runs the scale-out profile's load balancer and gateways too
  return [...new Set(binaries)].filter((binary) => {
    try {
      accessSync(join(binDir, binary), constants.X_OK);
      return false;
    } catch {
      return true;
    }
  });
}

/** What to do about missing binaries: build them. */
export function missingBinariesMessage(missing: readonly string[], binDir = servicesBinDir()): string {
  return (
    `the stack needs ${missing.join(', ')}, not in ${binDir}: build them with \`bash scripts/services.sh\` ` +
    '(Go and the module proxy; about 25 minutes the first time)'
  );
}

export async function startStack(options: StackOptions): Promise<RunningStack> {
  const binDir = options.binDir ?? servicesBinDir();
  const missing = missingBinaries(binDir);
  if (missing.length > 0) throw new StackError(missingBinariesMessage(missing, binDir));
  const compose = readComposeServices();
  const samplers = options.samplers ?? 0;
  const services = [
    ...[...compose.values()].filter((service) => !NOT_RUN.has(service.name) && service.profiles.length === 0),
    ...(samplers > 0 ? scaleOutServices(compose, samplers) : []),
  ];
  const volumesDir = join(options.dataDir, 'volumes');
  const logsDir = join(options.dataDir, 'logs');
  mkdirSync(logsDir, { recursive: true });

  const mode = options.ports ?? 'compose';
  const ports = await portPlan(services, mode);
  const address = (service: string, containerPort: number) => {
    const port = ports.get(service)?.get(containerPort);
    if (port === undefined)
      throw new StackError(`${service}:${containerPort} is no port the ${service} service listens on`);
    return `127.0.0.1:${port}`;
  };
  const gateways = () => services.filter((service) => isGateway(service.name)).map((service) => service.name);
  /** The stack's own variables of a service: the tier's addresses, then the caller's. */
  const envOf = (service: string): NodeJS.ProcessEnv => ({
    ...(samplers > 0 && service === 'collector'
      ? { COLLECTOR_TRACES_OTLP_ENDPOINT: address(LOAD_BALANCER, 4317) }
      : {}),
    ...(service === LOAD_BALANCER
      ? {
          LOAD_BALANCER_GATEWAYS: `[${gateways()
            .map((gateway) => address(gateway, 4317))
            .join(', ')}]`,
        }
      : {}),
    ...options.serviceEnv?.(service),
  });
  const context: LaunchContext = { options, volumesDir, logsDir, address, ports };

  const started = new Map<string, ServerProcess>();
  const start = async (service: ComposeService) => {
    const launch = launchOf(service, context);
    for (const { name } of service.volumes) mkdirSync(join(volumesDir, name), { recursive: true });
    started.set(
      service.name,
      await startServerProcess(service.name, join(binDir, binaryOf(service)), launch.args, {
        env: { ...launch.env, ...envOf(service.name) },
        ready: launch.ready,
        readyTimeoutMs: options.readyTimeoutMs ?? 60_000,
        logFile: join(logsDir, `${service.name}.log`),
      }),
    );
  };
  const stop = async () => {
    await Promise.all([...started.values()].map((service) => service.stop()));
  };
  const restart = async (name: string, signal: NodeJS.Signals = 'SIGKILL') => {
    const service = services.find((candidate) => candidate.name === name);
    const running = started.get(name);
    if (!service || !running) throw new StackError(`no service ${name} in this stack`);
    await running.kill(signal);
    await start(service);
  };
  const addSampler = async () => {
    if (samplers === 0) throw new StackError('no scale-out tier in this stack (samplers: 0)');
    const template = compose.get('gateway-1')!;
    const gateway = gatewayNumbered(compose, template, gateways().length + 1);
    ports.set(gateway.name, (await portPlan([gateway], 'free')).get(gateway.name)!);
    services.push(gateway);
    await start(gateway);
    await restart(LOAD_BALANCER, 'SIGTERM');
    return gateway.name;
  };
  try {
    await Promise.all(services.map(start));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    endpoints: {
      otlpHttp: `http://${address('collector', 4318)}`,
      otlpGrpc: address('collector', 4317),
      jaeger: `http://${address('jaeger', 16686)}`,
      prometheus: `http://${address('prometheus', 9090)}`,
      alertmanager: `http://${address('alertmanager', 9093)}`,
    },
    logsDir,
    services: started,
    address,
    restart,
    addSampler,
    stop,
  };
}

function binaryOf(service: ComposeService): string {
  const binary = BINARIES[service.image.split(':')[0]!];
  if (!binary) throw new StackError(`no binary for the image ${service.image} of service ${service.name}`);
  return binary;
}

/** Each service's ports: container port → port on 127.0.0.1. */
type PortPlan = Map<string, Map<number, number>>;

interface LaunchContext {
  readonly options: StackOptions;
  readonly volumesDir: string;
  readonly logsDir: string;
  readonly ports: PortPlan;
  address(service: string, containerPort: number): string;
}

interface Launch {
  readonly args: string[];
  readonly env: NodeJS.ProcessEnv;
  readonly ready: () => Promise<boolean>;
}

/**
 * The ports each service listens on: the ones compose publishes, and a collector config's `*_PORT` variables
 * (their defaults are the container's ports). Published ones keep their number in `'compose'` mode.
 */
async function portPlan(services: readonly ComposeService[], mode: 'compose' | 'free'): Promise<PortPlan> {
  const plan: PortPlan = new Map();
  const drawn = new Set<number>();
  const draw = async () => {
    // distinct: the OS may hand back a port it just gave out
    for (;;) {
      const port = await freePort();
      if (!drawn.has(port)) {
        drawn.add(port);
        return port;
      }
    }
  };
  for (const service of services) {
    const ports = new Map<number, number>();
    for (const { host, container } of service.ports) ports.set(container, mode === 'compose' ? host : await draw());
    for (const file of collectorConfigFiles(service)) {
      for (const { name, defaultValue } of configVariables(file)) {
        const port = Number(defaultValue);
        if (name.endsWith('_PORT') && Number.isInteger(port) && !ports.has(port)) ports.set(port, await draw());
      }
    }
    plan.set(service.name, ports);
  }
  return plan;
}

/** The config files of a collector-based service (the collector, Jaeger): its `--config=` files, found here. */
function collectorConfigFiles(service: ComposeService): string[] {
  return service.command
    .filter((argument) => argument.startsWith('--config='))
    .map((argument) => hostPath(service, argument.slice('--config='.length), '') ?? '')
    .filter((file) => file.endsWith('.yaml') || file.endsWith('.yml'));
}

function launchOf(service: ComposeService, context: LaunchContext): Launch {
  switch (binaryOf(service)) {
    case 'otelcol-tool-calls':
    case 'jaeger':
      return collectorLaunch(service, context);
    case 'prometheus':
      return prometheusLaunch(service, context);
    default:
      return alertmanagerLaunch(service, context);
  }
}

/** The command's container paths as paths here (a named volume: its folder in `volumesDir`). */
function translatedCommand(
  service: ComposeService,
  volumesDir: string,
  replace: Record<string, string> = {},
): string[] {
  return service.command.map((argument) => {
    const match = /^(--[\w.-]+)=(\/.*)$/.exec(argument);
    if (!match) return argument;
    const [, flag, path] = match as unknown as [string, string, string];
    return `${flag}=${replace[flag] ?? hostPath(service, path, volumesDir) ?? path}`;
  });
}

function collectorLaunch(service: ComposeService, context: LaunchContext): Launch {
  const env: NodeJS.ProcessEnv = {
    // a container's hostname: the collector's instance when COLLECTOR_INSTANCE_ID is not set
    HOSTNAME: hostname(),
    // Jaeger traces itself to localhost:4317 by default: in a container, itself; here, the collector
    OTEL_TRACES_EXPORTER: 'none',
  };
  let healthPort: number | undefined;
  let queryPort: number | undefined;
  for (const file of collectorConfigFiles(service)) {
    for (const { name, defaultValue } of configVariables(file)) {
      const value = valueHere(service, name, defaultValue, context);
      if (value !== undefined) env[name] = value;
      if (name.endsWith('_HEALTH_PORT')) healthPort = Number(env[name]);
      if (name === 'JAEGER_QUERY_HTTP_PORT') queryPort = Number(env[name]);
    }
  }
  if (healthPort === undefined) throw new StackError(`${service.name}: its config has no *_HEALTH_PORT variable`);
  return {
    args: translatedCommand(service, context.volumesDir),
    env,
    ready: async () =>
      (await answers(`http://127.0.0.1:${healthPort}/status`)) &&
      (queryPort === undefined || (await answers(`http://127.0.0.1:${queryPort}/api/services`))),
  };
}

/** The value here of a config variable whose default is written for a container; undefined: the default stays. */
function valueHere(
  service: ComposeService,
  name: string,
  defaultValue: string,
  context: LaunchContext,
): string | undefined {
  if (defaultValue === '0.0.0.0') return '127.0.0.1';
  if (name.endsWith('_PORT') && /^\d+$/.test(defaultValue)) {
    return context.address(service.name, Number(defaultValue)).split(':')[1];
  }
  const url = /^(https?:\/\/)?([a-z][\w-]*):(\d+)(\/.*)?$/.exec(defaultValue);
  if (url && context.ports.has(url[2]!)) {
    return `${url[1] ?? ''}${context.address(url[2]!, Number(url[3]))}${url[4] ?? ''}`;
  }
  if (isAbsolute(defaultValue)) return hostPath(service, defaultValue, context.volumesDir);
  return undefined;
}

function prometheusLaunch(service: ComposeService, context: LaunchContext): Launch {
  const configFlag = service.command.find((argument) => argument.startsWith('--config.file='));
  const original = hostPath(service, configFlag?.slice('--config.file='.length) ?? '', '');
  if (!original) throw new StackError('prometheus: its --config.file is not a file the compose file mounts');
  const config = join(context.options.dataDir, 'prometheus', 'prometheus.yml');
  mkdirSync(dirname(config), { recursive: true });
  writeFileSync(config, prometheusConfigHere(original, context));
  const listen = context.address(service.name, 9090);
  return {
    args: [
      ...translatedCommand(service, context.volumesDir, { '--config.file': config }),
      `--web.listen-address=${listen}`,
    ],
    env: {},
    ready: () => answers(`http://${listen}/-/ready`),
  };
}

interface PrometheusConfig {
  global?: Record<string, string>;
  rule_files?: string[];
  alerting?: { alertmanagers: Array<{ static_configs: Array<{ targets: string[] }> }> };
  scrape_configs: Array<{ job_name: string; static_configs: Array<{ targets: string[] }> }>;
}

/** prometheus.yml with the stack's addresses here, its rule files by their paths, and the interval asked for. */
export function prometheusConfigHere(
  file: string,
  context: Pick<LaunchContext, 'options' | 'address' | 'ports'>,
): string {
  const config = parse(readFileSync(file, 'utf8')) as PrometheusConfig;
  const here = (target: string): string[] => {
    const [host = '', port = ''] = target.split(':');
    if (host === 'host.docker.internal') return [...(context.options.appMetricsTargets ?? [`127.0.0.1:${port}`])];
    if (host === 'localhost') return [context.address('prometheus', Number(port))];
    if (context.ports.has(host)) return [context.address(host, Number(port))];
    return [target];
  };
  for (const job of config.scrape_configs) {
    for (const group of job.static_configs) group.targets = group.targets.flatMap(here);
  }
  for (const manager of config.alerting?.alertmanagers ?? []) {
    for (const group of manager.static_configs) group.targets = group.targets.flatMap(here);
  }
  config.rule_files = (config.rule_files ?? []).map(
    (rules) => context.options.ruleFileOverrides?.[rules] ?? join(dirname(file), rules),
  );
  if (context.options.interval) {
    config.global = {
      ...config.global,
      scrape_interval: context.options.interval,
      scrape_timeout: context.options.interval,
      evaluation_interval: context.options.interval,
    };
  }
  return `# written by scripts/stack from ${file}: the compose stack's addresses as this machine's\n${stringify(config)}`;
}

function alertmanagerLaunch(service: ComposeService, context: LaunchContext): Launch {
  const listen = context.address(service.name, 9093);
  return {
    args: [
      ...translatedCommand(service, context.volumesDir),
      `--web.listen-address=${listen}`,
      // no cluster: it would listen on every interface (:9094) and wait for peers before notifying
      '--cluster.listen-address=',
    ],
    env: {},
    ready: () => answers(`http://${listen}/-/ready`),
  };
}
