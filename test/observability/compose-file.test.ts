/**
 * docker-compose.otel.yml is consistent with the configuration it mounts: it parses, every mounted file
 * exists, images are pinned, and the service names and ports it publishes are the ones that the Prometheus,
 * Grafana and dashboard configuration refer to. (No Docker engine is needed: these are checks on the files.)
 * And the images are the versions of the servers that the other tests run: the binaries scripts/services.sh
 * builds (`<binary> --version`, `jaeger version`) must print the versions the tags pin.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { skipOrFail } from '../helpers/prometheus.js';
import { serviceGate, versionOf } from '../helpers/service-binaries.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readYaml = <T>(path: string): T => parse(readFileSync(join(root, path), 'utf8')) as T;

interface ComposeService {
  image: string;
  profiles?: string[];
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  extra_hosts?: string[];
  depends_on?: string[];
}
interface Datasource {
  uid: string;
  type: string;
  url: string;
}

const compose = readYaml<{ services: Record<string, ComposeService>; volumes?: Record<string, unknown> }>(
  'docker-compose.otel.yml',
);
const services = compose.services;
const prometheusConfig = readYaml<{
  rule_files: string[];
  alerting: { alertmanagers: Array<{ static_configs: Array<{ targets: string[] }> }> };
  scrape_configs: Array<{
    job_name: string;
    metrics_path?: string;
    honor_labels?: boolean;
    static_configs: Array<{ targets: string[] }>;
  }>;
}>('observability/prometheus/prometheus.yml');
interface CollectorConfig {
  receivers: { otlp: { protocols: Record<'grpc' | 'http', { endpoint: string }> } };
  exporters: Record<string, { endpoint?: string; metrics_endpoint?: string }>;
  service: { pipelines: Record<string, { receivers: string[]; exporters: string[] }> };
}
const datasources = readYaml<{ datasources: Datasource[] }>(
  'observability/grafana/provisioning/datasources/datasources.yml',
).datasources;
const dashboardProviders = readYaml<{ providers: Array<{ options: { path: string } }> }>(
  'observability/grafana/provisioning/dashboards/dashboards.yml',
).providers;

/** The bind mounts, `./host/path:/container/path[:ro]` (a named volume's source has no `.` or `/`). */
function mounts(service: ComposeService) {
  return (service.volumes ?? [])
    .filter((volume) => /^[./]/.test(volume))
    .map((volume) => {
      const [host = '', container = ''] = volume.split(':');
      return { host: join(root, host), container };
    });
}

/** The named volumes, `name:/container/path`. */
function namedVolumes(service: ComposeService) {
  return (service.volumes ?? [])
    .filter((volume) => !/^[./]/.test(volume))
    .map((volume) => {
      const [name = '', container = ''] = volume.split(':');
      return { name, container };
    });
}

/** The value of `--flag=value` in a service's command. */
function flagValue(service: ComposeService, flag: string): string | undefined {
  return service.command?.find((argument) => argument.startsWith(`${flag}=`))?.slice(flag.length + 1);
}

/** A config file with its `${env:NAME:-default}` variables replaced by their defaults: what a container runs. */
function withDefaults<T>(path: string): T {
  return parse(readFileSync(join(root, path), 'utf8').replace(/\$\{env:\w+:-([^}]*)\}/g, '$1')) as T;
}

const collectorConfig = withDefaults<CollectorConfig>('observability/collector/config.yaml');

/** The host-side file of a path inside a container, through the service's bind mounts. */
function hostPathOf(service: ComposeService, containerPath: string): string | undefined {
  for (const { host, container } of mounts(service)) {
    if (containerPath === container) return host;
    if (containerPath.startsWith(`${container}/`)) return join(host, containerPath.slice(container.length + 1));
  }
  return undefined;
}

/** `host:container` port pairs published by a service. */
function publishedPorts(service: ComposeService): string[] {
  return service.ports ?? [];
}

/** `http://name:port` and `name:port` resolve to a compose service publishing that container port. */
function expectServiceAddress(address: string) {
  const { hostname, port } = new URL(address.includes('://') ? address : `http://${address}`);
  const service = services[hostname];
  expect(service, `${address} names a compose service`).toBeDefined();
  expect(publishedPorts(service!).map((mapping) => mapping.split(':').at(-1))).toContain(port);
}

describe('docker-compose.otel.yml', () => {
  it('defines the collector, Jaeger, Prometheus, Alertmanager and Grafana, and the scale-out profile apart', () => {
    const always = Object.entries(services).filter(([, service]) => service.profiles === undefined);
    expect(always.map(([name]) => name).sort()).toEqual([
      'alertmanager',
      'collector',
      'grafana',
      'jaeger',
      'prometheus',
    ]);
    const scaleOut = Object.entries(services).filter(([, service]) => service.profiles?.includes('scale-out'));
    expect(scaleOut.map(([name]) => name).sort()).toEqual(['gateway-1', 'gateway-2', 'gateway-3', 'load-balancer']);
  });

  it('routes the scale-out tier: the collector to the load balancer, it to the gateways, each queue on its own volume', () => {
    // the collector sends its traces where TRACES_ENDPOINT says (the profile's load balancer), else to Jaeger
    expect(services.collector!.environment?.COLLECTOR_TRACES_OTLP_ENDPOINT).toBe(`$\{TRACES_ENDPOINT:-jaeger:4317}`);
    const loadBalancer = withDefaults<{
      receivers: { otlp: { protocols: Record<'grpc' | 'http', { endpoint: string }> } };
      exporters: { loadbalancing: { routing_key: string; resolver: { static: { hostnames: string[] } } } };
      extensions: Record<string, { directory?: string }>;
    }>('observability/collector/load-balancer.yaml');
    expect(loadBalancer.receivers.otlp.protocols.grpc.endpoint).toBe('0.0.0.0:4317');
    expect(loadBalancer.exporters.loadbalancing.routing_key).toBe('traceID');
    expect(loadBalancer.exporters.loadbalancing.resolver.static.hostnames).toEqual([
      'gateway-1:4317',
      'gateway-2:4317',
      'gateway-3:4317',
    ]);
    const gateway = withDefaults<{
      receivers: { otlp: { protocols: Record<'grpc' | 'http', { endpoint: string }> } };
      exporters: Record<string, { endpoint?: string }>;
      extensions: Record<string, { directory?: string }>;
    }>('observability/collector/gateway.yaml');
    expect(gateway.receivers.otlp.protocols.grpc.endpoint).toBe('0.0.0.0:4317');
    expect(gateway.exporters['otlphttp/jaeger']?.endpoint).toBe('http://jaeger:4318');
    for (const [name, config, file] of [
      ['load-balancer', loadBalancer, 'load-balancer.yaml'],
      ['gateway-1', gateway, 'gateway.yaml'],
      ['gateway-2', gateway, 'gateway.yaml'],
      ['gateway-3', gateway, 'gateway.yaml'],
    ] as const) {
      const service = services[name]!;
      expect(hostPathOf(service, flagValue(service, '--config') ?? '')).toBe(
        join(root, 'observability/collector', file),
      );
      const queue = config.extensions['file_storage/queue']?.directory ?? '';
      expect(
        namedVolumes(service).find(({ container }) => queue.startsWith(`${container}/`))?.name,
        `${name}'s queue is on its volume`,
      ).toBe(`${name}-queue`);
    }
  });

  it.for([
    { service: 'jaeger', image: 'jaegertracing/jaeger', binary: 'jaeger', tagPrefix: '' },
    { service: 'prometheus', image: 'prom/prometheus', binary: 'prometheus', tagPrefix: 'v' },
    { service: 'alertmanager', image: 'prom/alertmanager', binary: 'alertmanager', tagPrefix: 'v' },
    // the contrib image of the release the collector is built from (its manifest's dist.version)
    {
      service: 'collector',
      image: 'otel/opentelemetry-collector-contrib',
      binary: 'otelcol-tool-calls',
      tagPrefix: '',
    },
  ])('pins $image to the version of the $binary that the tests run', ({ service, image, binary, tagPrefix }, ctx) => {
    const gate = serviceGate(binary);
    const path = gate.path ?? skipOrFail(ctx, gate);
    // `prometheus, version 3.16.0 (branch: ...)`; Jaeger: `{"gitCommit":"...","gitVersion":"v2.13.0",...}`
    const printed = versionOf(path);
    const version = /(?:version |"gitVersion":"v)(\d+\.\d+\.\d+)/.exec(printed)?.[1];
    expect(version, `${binary} printed: ${printed}`).toBeDefined();
    expect(services[service]!.image).toBe(`${image}:${tagPrefix}${version}`);
  });

  it('runs the collector of the line Jaeger is built on (0.140.x), Jaeger 2.x, Prometheus 3.x and Grafana 12.x', () => {
    expect(services.collector!.image).toMatch(/^otel\/opentelemetry-collector-contrib:0\.140\./);
    expect(services.jaeger!.image).toMatch(/^jaegertracing\/jaeger:2\./);
    expect(services.prometheus!.image).toMatch(/^prom\/prometheus:v3\./);
    expect(services.grafana!.image).toMatch(/^grafana\/grafana:12\./);
  });

  it('pins every image to an exact version', () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.image, name).toMatch(/^[\w./-]+:v?\d+\.\d+\.\d+$/);
    }
  });

  it('publishes the documented ports: OTLP 4317/4318 (the collector), Jaeger UI 16686, Prometheus 9090, Alertmanager 9093, Grafana 3000', () => {
    expect(publishedPorts(services.collector!)).toEqual(['4317:4317', '4318:4318']);
    expect(publishedPorts(services.jaeger!)).toEqual(['16686:16686']);
    expect(publishedPorts(services.prometheus!)).toEqual(['9090:9090']);
    expect(publishedPorts(services.alertmanager!)).toEqual(['9093:9093']);
    expect(publishedPorts(services.grafana!)).toEqual(['3000:3000']);
  });

  it('mounts only files and directories that exist in the repository', () => {
    const all = Object.values(services).flatMap(mounts);
    expect(all.length).toBeGreaterThanOrEqual(5);
    for (const { host } of all) expect(existsSync(host), host).toBe(true);
  });

  it('starts the collector, Jaeger, Prometheus and Alertmanager with config files that the mounts provide', () => {
    for (const [name, option] of [
      ['collector', '--config='],
      ['jaeger', '--config='],
      ['prometheus', '--config.file='],
      ['alertmanager', '--config.file='],
    ] as const) {
      const service = services[name]!;
      const flag = service.command?.find((argument) => argument.startsWith(option));
      expect(flag, name).toBeDefined();
      const hostFile = hostPathOf(service, flag!.slice(option.length));
      expect(hostFile, `${name} config is mounted`).toBeDefined();
      expect(statSync(hostFile!).isFile()).toBe(true);
    }
    expect(hostPathOf(services.prometheus!, '/etc/prometheus/prometheus.yml')).toBe(
      join(root, 'observability/prometheus/prometheus.yml'),
    );
    expect(hostPathOf(services.jaeger!, '/etc/jaeger/config.yaml')).toBe(
      join(root, 'observability/jaeger/config.yaml'),
    );
    expect(hostPathOf(services.collector!, '/etc/otelcol-contrib/config.yaml')).toBe(
      join(root, 'observability/collector/config.yaml'),
    );
  });

  it.for(['observability/jaeger/config.yaml', 'observability/jaeger/config-memory.yaml'])(
    'has Jaeger listen, by the defaults of %s, on all interfaces: OTLP where the collector sends, the UI where the service publishes it',
    (file) => {
      // the config reads host and ports from variables that the tests set; in the container the defaults apply
      const config = withDefaults<{
        receivers: { otlp: { protocols: Record<'grpc' | 'http', { endpoint: string }> } };
        extensions: { jaeger_query: { http: { endpoint: string } } };
      }>(file);
      expect(config.receivers.otlp.protocols.grpc.endpoint).toBe('0.0.0.0:4317');
      expect(config.receivers.otlp.protocols.http.endpoint).toBe('0.0.0.0:4318');
      expect(config.extensions.jaeger_query.http.endpoint).toBe('0.0.0.0:16686');
      expect(publishedPorts(services.jaeger!).map((mapping) => mapping.split(':')[1])).toEqual(['16686']);
      expect(collectorConfig.exporters['otlp/traces']?.endpoint).toBe('jaeger:4317');
    },
  );

  it('has the collector take OTLP where the apps send it, and hand each signal on to a service of the stack', () => {
    expect(collectorConfig.receivers.otlp.protocols.grpc.endpoint).toBe('0.0.0.0:4317');
    expect(collectorConfig.receivers.otlp.protocols.http.endpoint).toBe('0.0.0.0:4318');
    // traces to Jaeger's OTLP receiver (not published: only the collector sends there)
    expect(collectorConfig.service.pipelines.traces?.exporters).toEqual(['otlp/traces']);
    expect(services.collector!.depends_on).toContain('jaeger');
    // this package's metrics served for Prometheus' scrape, with the job and instance they carry
    const served = collectorConfig.exporters['prometheus/tool-calls']?.endpoint?.split(':').at(-1);
    expect(collectorConfig.service.pipelines['metrics/tool-calls']?.exporters).toEqual(['prometheus/tool-calls']);
    const job = prometheusConfig.scrape_configs.find((config) => config.job_name === 'tool-calls-collector');
    expect(job?.static_configs.flatMap((config) => config.targets)).toEqual([`collector:${served}`]);
    expect(job?.honor_labels).toBe(true);
    // every other metric into Prometheus' OTLP receiver, which the compose command turns on
    const otlp = collectorConfig.exporters['otlphttp/prometheus']?.metrics_endpoint ?? '';
    expect(otlp).toBe('http://prometheus:9090/api/v1/otlp/v1/metrics');
    expectServiceAddress(otlp);
    expect(services.prometheus!.command).toContain('--web.enable-otlp-receiver');
    expect(services.prometheus!.command).toContain('--enable-feature=created-timestamp-zero-ingestion');
    // the decision log records in the collector's output
    expect(collectorConfig.service.pipelines.logs?.exporters).toEqual(['debug/log-records']);
  });

  it('keeps Jaeger traces, the Prometheus TSDB and Alertmanager state on named volumes, where each server writes', () => {
    expect(Object.keys(compose.volumes ?? {}).sort()).toEqual([
      'alertmanager-data',
      'gateway-1-queue',
      'gateway-2-queue',
      'gateway-3-queue',
      'jaeger-data',
      'load-balancer-queue',
      'prometheus-data',
    ]);
    const volumeAt = (service: string, path: string) =>
      namedVolumes(services[service]!).find(({ container }) => path === container || path.startsWith(`${container}/`))
        ?.name;
    // Jaeger: Badger's directories, by the defaults of the compose config, on the jaeger-data volume
    const jaeger = withDefaults<{
      extensions: {
        jaeger_storage: { backends: Record<string, { badger?: { directories: Record<'keys' | 'values', string> } }> };
        jaeger_query: { storage: { traces: string } };
      };
      exporters: { jaeger_storage_exporter: { trace_storage: string } };
    }>('observability/jaeger/config.yaml');
    const store = jaeger.exporters.jaeger_storage_exporter.trace_storage;
    expect(jaeger.extensions.jaeger_query.storage.traces).toBe(store);
    const badger = jaeger.extensions.jaeger_storage.backends[store]?.badger;
    expect(badger, 'the compose Jaeger stores traces in Badger').toBeDefined();
    expect(volumeAt('jaeger', badger!.directories.keys)).toBe('jaeger-data');
    expect(volumeAt('jaeger', badger!.directories.values)).toBe('jaeger-data');
    expect(volumeAt('prometheus', flagValue(services.prometheus!, '--storage.tsdb.path') ?? '')).toBe(
      'prometheus-data',
    );
    expect(volumeAt('alertmanager', flagValue(services.alertmanager!, '--storage.path') ?? '')).toBe(
      'alertmanager-data',
    );
  });

  it('keeps at least the SLO period of metrics in Prometheus (the error budget is over that period)', () => {
    const slos = readYaml<{ period: string }>('observability/prometheus/slos.yml');
    const days = (duration: string) => Number(/^(\d+)d$/.exec(duration)?.[1]);
    const retention = flagValue(services.prometheus!, '--storage.tsdb.retention.time') ?? '15d';
    expect(days(retention)).toBeGreaterThanOrEqual(days(slos.period));
  });

  it("lets Prometheus scrape Jaeger's span metrics, and Jaeger's Monitor tab read them from Prometheus", () => {
    const jaeger = withDefaults<{
      exporters: Record<string, { endpoint?: string }>;
      service: { pipelines: Record<string, { receivers: string[]; exporters: string[] }> };
      extensions: {
        jaeger_storage: { metric_backends: Record<string, { prometheus: { endpoint: string } }> };
        jaeger_query: { storage: { metrics: string } };
      };
    }>('observability/jaeger/config.yaml');
    const pipeline = Object.values(jaeger.service.pipelines).find((p) => p.receivers.includes('spanmetrics'));
    expect(jaeger.service.pipelines.traces?.exporters).toContain('spanmetrics');
    const exporter = jaeger.exporters[pipeline!.exporters[0]!];
    const port = exporter?.endpoint?.split(':').at(-1);
    const job = prometheusConfig.scrape_configs.find((config) => config.job_name === 'jaeger-spanmetrics');
    expect(job?.static_configs.flatMap((config) => config.targets)).toEqual([`jaeger:${port}`]);
    const backend = jaeger.extensions.jaeger_storage.metric_backends[jaeger.extensions.jaeger_query.storage.metrics];
    expect(backend?.prometheus.endpoint).toBe('http://prometheus:9090');
    expectServiceAddress(backend!.prometheus.endpoint);
  });

  it('makes the rules files that prometheus.yml loads visible inside the Prometheus container', () => {
    expect(prometheusConfig.rule_files).toEqual(['rules/tool-calls.rules.yml', 'rules/tool-calls-slo.rules.yml']);
    for (const file of prometheusConfig.rule_files) {
      // rule_files are relative to the config file's directory, /etc/prometheus
      const hostFile = hostPathOf(services.prometheus!, `/etc/prometheus/${file}`);
      expect(hostFile).toBe(join(root, 'observability/prometheus', file));
      expect(existsSync(hostFile!)).toBe(true);
    }
  });

  it('lets Prometheus scrape the app on the host at :9464/metrics', () => {
    const job = prometheusConfig.scrape_configs.find((config) => config.job_name === 'tool-calls-demo');
    expect(job?.metrics_path ?? '/metrics').toBe('/metrics');
    expect(job?.static_configs.flatMap((config) => config.targets)).toEqual(['host.docker.internal:9464']);
    expect(services.prometheus!.extra_hosts).toContain('host.docker.internal:host-gateway');
  });

  it('sends alerts to the Alertmanager service', () => {
    const targets = prometheusConfig.alerting.alertmanagers.flatMap((am) =>
      am.static_configs.flatMap((c) => c.targets),
    );
    expect(targets).toEqual(['alertmanager:9093']);
    for (const target of targets) expectServiceAddress(target);
  });

  it('points the Grafana datasources at the Prometheus and Jaeger services', () => {
    expect(datasources.map(({ uid, type }) => ({ uid, type }))).toEqual([
      { uid: 'prometheus', type: 'prometheus' },
      { uid: 'jaeger', type: 'jaeger' },
    ]);
    for (const datasource of datasources) expectServiceAddress(datasource.url);
  });

  it('mounts the Grafana provisioning where Grafana reads it and the dashboards where the provider looks', () => {
    const grafana = services.grafana!;
    expect(hostPathOf(grafana, '/etc/grafana/provisioning/datasources/datasources.yml')).toBe(
      join(root, 'observability/grafana/provisioning/datasources/datasources.yml'),
    );
    expect(hostPathOf(grafana, '/etc/grafana/provisioning/dashboards/dashboards.yml')).toBe(
      join(root, 'observability/grafana/provisioning/dashboards/dashboards.yml'),
    );
    for (const provider of dashboardProviders) {
      expect(hostPathOf(grafana, `${provider.options.path}/tool-calls.json`)).toBe(
        join(root, 'observability/grafana/dashboards/tool-calls.json'),
      );
    }
  });

  it('gives anonymous visitors read-only access to Grafana', () => {
    expect(services.grafana!.environment).toMatchObject({
      GF_AUTH_ANONYMOUS_ENABLED: 'true',
      GF_AUTH_ANONYMOUS_ORG_ROLE: 'Viewer',
    });
    const home = services.grafana!.environment?.GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH;
    expect(existsSync(hostPathOf(services.grafana!, home ?? '') ?? '')).toBe(true);
  });
});
