/**
 * deploy/kubernetes/ runs the scale-out tier (the apps' collector → two load balancers → tail-sampling gateways
 * → Jaeger) with the repository's collector configs, and agrees with them: the configs it loads are what
 * scripts/kubernetes-collector-configs.ts writes from observability/collector/ (the load balancer's with the k8s
 * resolver, nothing else changed); the ports it declares are those the configs listen on; each hop sends where
 * the next one listens; the resolver follows the gateways' headless Service, which its RBAC lets it read; every
 * sending queue is on a persistent volume; the autoscaler drives the gateways' StatefulSet; the images are the
 * compose file's. The configs, with the variables the manifests set, pass the built collector's `validate`.
 * (No cluster: checks on the files, `validate`, and `kubectl kustomize` where kubectl is installed.)
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import {
  collectorConfigDir,
  KUBERNETES_COLLECTOR_CONFIGS,
  type KubernetesCollectorConfig,
  kubernetesCollectorConfig,
  kubernetesCollectorConfigPath,
  kubernetesDir,
  repositoryRoot,
} from '../../scripts/kubernetes-collector-configs.js';
import { findBinary, skipOrFail } from '../helpers/prometheus.js';
import { serviceGate } from '../helpers/service-binaries.js';

// ---- the manifests, as kubectl apply -k reads them -------------------------------------------------------

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { fieldRef?: { fieldPath: string } };
}
interface Container {
  name: string;
  image: string;
  args?: string[];
  env?: EnvVar[];
  ports?: Array<{ name?: string; containerPort: number }>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  volumeMounts?: Array<{ name: string; mountPath: string; readOnly?: boolean }>;
  securityContext?: { readOnlyRootFilesystem?: boolean };
}
interface PodSpec {
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  securityContext?: { fsGroup?: number; runAsUser?: number };
  containers: Container[];
  volumes?: Array<{ name: string; configMap?: { name: string } }>;
}
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: each kind's spec is read where its kind is known
  spec?: any;
  // biome-ignore lint/suspicious/noExplicitAny: Role rules, RoleBinding subjects
  [field: string]: any;
}
interface Workload extends K8sObject {
  spec: {
    replicas?: number;
    serviceName?: string;
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
    volumeClaimTemplates?: Array<{ metadata: { name: string }; spec: { accessModes: string[] } }>;
  };
}
interface ServicePort {
  name?: string;
  port: number;
  targetPort?: number | string;
}

const kustomization = parse(readFileSync(join(kubernetesDir, 'kustomization.yaml'), 'utf8')) as {
  namespace: string;
  resources: string[];
  configMapGenerator: Array<{ name: string; files: string[] }>;
};
const namespace = kustomization.namespace;

const objectsOf = (path: string) =>
  parseAllDocuments(readFileSync(path, 'utf8')).map((document) => document.toJS() as K8sObject);
const objects = kustomization.resources.flatMap((file) => objectsOf(join(kubernetesDir, file)));

function object<T extends K8sObject = K8sObject>(kind: string, name: string): T {
  const found = objects.find((candidate) => candidate.kind === kind && candidate.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in deploy/kubernetes/`);
  return found as T;
}

/** The ConfigMaps of kustomization.yaml's configMapGenerator: name → { key (the file's name) → content }. */
const configMaps = new Map(
  kustomization.configMapGenerator.map(({ name, files }) => [
    name,
    Object.fromEntries(files.map((file) => [file.split('/').at(-1)!, readFileSync(join(kubernetesDir, file), 'utf8')])),
  ]),
);

/** The Services whose selector picks a workload's pods. */
const servicesOf = (workload: Workload) =>
  objects.filter(
    (candidate) =>
      candidate.kind === 'Service' &&
      candidate.spec.selector &&
      Object.entries(candidate.spec.selector as Record<string, string>).every(
        ([key, value]) => workload.spec.template.metadata.labels[key] === value,
      ),
  );

const collector = object<Workload>('Deployment', 'collector');
const loadBalancer = object<Workload>('StatefulSet', 'load-balancer');
const gateway = object<Workload>('StatefulSet', 'gateway');
const gatewaysService = object('Service', 'gateways');

/** Each workload and the config it runs (its --config file), by file name. */
const WORKLOADS: Array<{ workload: Workload; file: KubernetesCollectorConfig }> = [
  { workload: collector, file: 'config.yaml' },
  { workload: loadBalancer, file: 'load-balancer.yaml' },
  { workload: gateway, file: 'gateway.yaml' },
];

const containerOf = (workload: Workload) => {
  expect(workload.spec.template.spec.containers, workload.metadata.name).toHaveLength(1);
  return workload.spec.template.spec.containers[0]!;
};

/** The variables a container gets: plain values, and a stand-in for the downward API's fields. */
function environmentOf(container: Container): Record<string, string> {
  return Object.fromEntries(
    (container.env ?? []).map(({ name, value, valueFrom }) => [
      name,
      value ?? `<${valueFrom?.fieldRef?.fieldPath ?? 'unknown'}>`,
    ]),
  );
}

// ---- the collector configs, as a container of the manifests runs them ----------------------------------

interface CollectorConfig {
  receivers: Record<string, unknown>;
  processors: Record<string, { policies?: unknown[]; limit_percentage?: number; spike_limit_percentage?: number }>;
  exporters: Record<
    string,
    {
      endpoint?: string;
      metrics_endpoint?: string;
      sending_queue?: { enabled?: boolean; storage?: string };
      resolver?: Record<string, { service?: string; ports?: number[]; hostnames?: string[] }>;
    }
  >;
  extensions: Record<string, { directory?: string; http?: { endpoint: string } }>;
  service: {
    extensions: string[];
    pipelines: Record<string, { receivers: string[]; processors?: string[]; exporters: string[] }>;
    telemetry?: { metrics?: { readers?: Array<{ pull?: { exporter: { prometheus: { port: number } } } }> } };
  };
}

/**
 * A config's text with each `${env:NAME:-default}` (innermost first) replaced by the variable where `environment`
 * has it, else by its default: what the collector reads. A variable with no default and no value fails.
 */
function resolve(text: string, environment: Record<string, string> = {}): string {
  const variable = /\$\{env:(\w+)(?::-([^${}]*))?\}/g;
  let resolved = text;
  for (let previous = ''; previous !== resolved; ) {
    previous = resolved;
    resolved = resolved.replace(variable, (_match, name: string, fallback: string | undefined) => {
      const value = environment[name] ?? fallback;
      if (value === undefined) throw new Error(`\${env:${name}} has no default and the manifest does not set it`);
      return value;
    });
  }
  return resolved;
}

const kubernetesConfigText = (file: KubernetesCollectorConfig) =>
  readFileSync(kubernetesCollectorConfigPath(file), 'utf8');
const sourceConfigText = (file: KubernetesCollectorConfig) => readFileSync(join(collectorConfigDir, file), 'utf8');

/** The config a workload's container runs: its ConfigMap's file, with the variables its manifest sets. */
function runningConfig(workload: Workload, file: KubernetesCollectorConfig): CollectorConfig {
  return parse(resolve(kubernetesConfigText(file), environmentOf(containerOf(workload)))) as CollectorConfig;
}

const portOf = (address: string) => Number(address.split(':').at(-1));

/** Every port a config listens on: its receivers' and extensions' endpoints, prometheus exporters, its own metrics. */
function listenPorts(config: CollectorConfig): number[] {
  const ports: number[] = [];
  const collect = (node: unknown) => {
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'endpoint' && typeof value === 'string') ports.push(portOf(value));
      else collect(value);
    }
  };
  collect(config.receivers);
  collect(config.extensions);
  for (const [id, exporter] of Object.entries(config.exporters)) {
    if (id.split('/')[0] === 'prometheus' && exporter.endpoint) ports.push(portOf(exporter.endpoint));
  }
  for (const reader of config.service.telemetry?.metrics?.readers ?? []) {
    if (reader.pull) ports.push(Number(reader.pull.exporter.prometheus.port));
  }
  return ports.sort((a, b) => a - b);
}

/** The port of a receiver protocol (`otlp`, `grpc`). */
function receiverPort(config: CollectorConfig, protocol: 'grpc' | 'http'): number {
  const otlp = config.receivers.otlp as { protocols: Record<string, { endpoint: string }> };
  return portOf(otlp.protocols[protocol]!.endpoint);
}

/** `http://name.namespace.svc.cluster.local:port`, `dns:///name.namespace.svc.cluster.local:port`, `name:port`: the Service and port. */
function serviceAddress(address: string): { service: K8sObject; port: number } {
  const bare = address.replace(/^dns:\/\/\//, '').replace(/^\w+:\/\//, '');
  const [host = '', port = ''] = bare.split('/')[0]!.split(':');
  const [name = '', serviceNamespace = namespace] = host.split('.');
  expect(serviceNamespace, `${address}: the namespace of the tier`).toBe(namespace);
  if (host.includes('.')) expect(host, address).toBe(`${name}.${serviceNamespace}.svc.cluster.local`);
  return { service: object('Service', name), port: Number(port) };
}

/** The container port a Service port sends to (its targetPort by name or number, else its port). */
function targetOf(servicePort: ServicePort, container: Container): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  return container.ports?.find((port) => port.name === target || port.containerPort === target)?.containerPort;
}

const compose = parse(readFileSync(join(repositoryRoot, 'docker-compose.otel.yml'), 'utf8')) as {
  services: Record<string, { image: string; command?: string[] }>;
};

describe('deploy/kubernetes: the scale-out tier as manifests', () => {
  it('lists every manifest of the folder in kustomization.yaml, every object in its namespace', () => {
    const manifests = readdirSync(kubernetesDir).filter(
      (file) => file.endsWith('.yaml') && file !== 'kustomization.yaml',
    );
    expect([...kustomization.resources].sort()).toEqual(manifests.sort());
    for (const item of objects) {
      if (item.kind === 'Namespace') expect(item.metadata.name).toBe(namespace);
      else expect(item.metadata.namespace, `${item.kind} ${item.metadata.name}`).toBe(namespace);
    }
  });

  it.for(KUBERNETES_COLLECTOR_CONFIGS)(
    'loads %s as scripts/kubernetes-collector-configs.ts writes it from observability/collector/ (run it after editing a config)',
    (file) => {
      expect(kubernetesConfigText(file)).toBe(kubernetesCollectorConfig(file, namespace));
      const generator = kustomization.configMapGenerator.find(({ files }) => files.includes(`collector/${file}`));
      expect(generator, `a configMapGenerator entry loads collector/${file}`).toBeDefined();
    },
  );

  it.for(['config.yaml', 'gateway.yaml'] as const)('runs %s as it is in observability/collector/', (file) => {
    expect(parse(kubernetesConfigText(file))).toEqual(parse(sourceConfigText(file)));
  });

  it("keeps the gateways' tail-sampling policies: every trace with an error, a share of the rest", () => {
    const running = runningConfig(gateway, 'gateway.yaml');
    const source = parse(resolve(sourceConfigText('gateway.yaml'))) as CollectorConfig;
    expect(running.processors.tail_sampling?.policies).toEqual(source.processors.tail_sampling?.policies);
    expect(running.processors.tail_sampling?.policies).toContainEqual(
      expect.objectContaining({ type: 'status_code', status_code: { status_codes: ['ERROR'] } }),
    );
    expect(running.service.pipelines.traces?.processors).toContain('tail_sampling');
  });

  it("changes nothing in the load balancer's config but its resolver: k8s, on the gateways' headless Service", () => {
    const running = parse(resolve(kubernetesConfigText('load-balancer.yaml'))) as CollectorConfig;
    const source = parse(resolve(sourceConfigText('load-balancer.yaml'))) as CollectorConfig;
    const resolverOf = (config: CollectorConfig) => config.exporters.loadbalancing!.resolver!;
    expect(Object.keys(resolverOf(source))).toEqual(['static']);
    expect(Object.keys(resolverOf(running))).toEqual(['k8s']);
    delete running.exporters.loadbalancing!.resolver;
    delete source.exporters.loadbalancing!.resolver;
    expect(running).toEqual(source);

    // the resolver names the gateways' Service and namespace, and sends to the gateways' OTLP gRPC port
    const k8s = resolverOf(parse(resolve(kubernetesConfigText('load-balancer.yaml'))) as CollectorConfig).k8s!;
    expect(k8s.service).toBe(`${gatewaysService.metadata.name}.${gatewaysService.metadata.namespace}`);
    const gatewayConfig = runningConfig(gateway, 'gateway.yaml');
    expect(k8s.ports).toEqual([receiverPort(gatewayConfig, 'grpc')]);
    // a headless Service (EndpointSlices of the pods themselves), of the gateways' pods, governing their StatefulSet
    expect(gatewaysService.spec.clusterIP).toBe('None');
    expect(servicesOf(gateway).map((service) => service.metadata.name)).toContain('gateways');
    expect(gateway.spec.serviceName).toBe('gateways');
  });

  it("runs each collector on the compose file's image, with its config mounted from the ConfigMap where --config points", () => {
    const composeConfigs = Object.values(compose.services).filter((service) =>
      service.command?.some((argument) => argument.startsWith('--config=/etc/otelcol-contrib/')),
    );
    expect(composeConfigs.length).toBeGreaterThanOrEqual(3);
    for (const { workload, file } of WORKLOADS) {
      const container = containerOf(workload);
      // the compose services that run this config run the same image
      const composeImages = composeConfigs
        .filter((service) => service.command!.includes(`--config=/etc/otelcol-contrib/${file}`))
        .map((service) => service.image);
      expect(composeImages.length, `compose runs ${file}`).toBeGreaterThan(0);
      expect(new Set([container.image, ...composeImages])).toEqual(
        new Set(['otel/opentelemetry-collector-contrib:0.140.1']),
      );

      const configPath = container.args
        ?.find((argument) => argument.startsWith('--config='))
        ?.slice('--config='.length);
      const mount = container.volumeMounts?.find((candidate) => configPath?.startsWith(`${candidate.mountPath}/`));
      expect(mount, `${workload.metadata.name}: --config is on a mount`).toBeDefined();
      const volume = workload.spec.template.spec.volumes?.find((candidate) => candidate.name === mount!.name);
      const configMap = configMaps.get(volume?.configMap?.name ?? '');
      const key = configPath!.slice(mount!.mountPath.length + 1);
      expect(configMap?.[key], `${workload.metadata.name} mounts ${file}`).toBe(kubernetesConfigText(file));
    }
  });

  it('declares the ports each collector listens on by its config, and each Service sends to one of them', () => {
    for (const { workload, file } of WORKLOADS) {
      const container = containerOf(workload);
      const config = runningConfig(workload, file);
      const declared = (container.ports ?? []).map((port) => port.containerPort).sort((a, b) => a - b);
      expect(declared, workload.metadata.name).toEqual(listenPorts(config));
      const services = servicesOf(workload);
      expect(services.length, `${workload.metadata.name} has a Service`).toBeGreaterThan(0);
      for (const service of services) {
        for (const servicePort of service.spec.ports as ServicePort[]) {
          // the same number on both sides: the addresses in the configs and the app's variables hold either way
          expect(targetOf(servicePort, container), `${service.metadata.name}:${servicePort.port}`).toBe(
            servicePort.port,
          );
        }
      }
    }
    // the apps' two OTLP ports, on the collector's Service
    const collectorConfig = runningConfig(collector, 'config.yaml');
    expect((object('Service', 'collector').spec.ports as ServicePort[]).map((port) => port.port)).toEqual(
      expect.arrayContaining([receiverPort(collectorConfig, 'grpc'), receiverPort(collectorConfig, 'http')]),
    );
  });

  it('sends each hop where the next one listens: collector → load balancers → gateways → Jaeger, Prometheus', () => {
    const collectorConfig = runningConfig(collector, 'config.yaml');
    const loadBalancerConfig = runningConfig(loadBalancer, 'load-balancer.yaml');
    const gatewayConfig = runningConfig(gateway, 'gateway.yaml');

    // the collector's traces: every load balancer in turn, through their headless Service
    const traces = serviceAddress(collectorConfig.exporters['otlp/traces']!.endpoint!);
    expect(collectorConfig.exporters['otlp/traces']!.endpoint).toMatch(/^dns:\/\/\//);
    expect(traces.service.metadata.name).toBe('load-balancer');
    expect(traces.service.spec.clusterIP).toBe('None');
    expect(servicesOf(loadBalancer)).toContain(traces.service);
    expect(traces.port).toBe(receiverPort(loadBalancerConfig, 'grpc'));

    // the load balancer's traces go to the gateways (the resolver above), over OTLP gRPC
    expect(Object.keys(loadBalancerConfig.exporters.loadbalancing!)).toContain('protocol');
    expect(loadBalancerConfig.service.pipelines.traces?.exporters).toEqual(['loadbalancing']);

    // the gateways' traces: Jaeger's OTLP/HTTP, through the alias Service `jaeger`
    const jaeger = serviceAddress(gatewayConfig.exporters['otlphttp/jaeger']!.endpoint!);
    expect(jaeger.service.metadata.name).toBe('jaeger');
    expect(jaeger.service.spec.type).toBe('ExternalName');
    expect((jaeger.service.spec.ports as ServicePort[]).map((port) => port.port)).toContain(jaeger.port);

    // the collector's other metrics: Prometheus' OTLP receiver, through the alias Service `prometheus`
    const prometheus = serviceAddress(collectorConfig.exporters['otlphttp/prometheus']!.metrics_endpoint!);
    expect(prometheus.service.spec.type).toBe('ExternalName');
    expect((prometheus.service.spec.ports as ServicePort[]).map((port) => port.port)).toContain(prometheus.port);
  });

  it("lets the load balancers read the gateways' EndpointSlices and nothing more: get, list, watch in their namespace", () => {
    const account = loadBalancer.spec.template.spec.serviceAccountName;
    expect(account).toBe('load-balancer');
    expect(loadBalancer.spec.template.spec.automountServiceAccountToken).not.toBe(false);
    expect(object('ServiceAccount', account!).metadata.namespace).toBe(namespace);

    const bindings = objects.filter(
      (item) =>
        item.kind === 'RoleBinding' &&
        item.subjects.some(
          (subject: { kind: string; name: string; namespace: string }) =>
            subject.kind === 'ServiceAccount' && subject.name === account && subject.namespace === namespace,
        ),
    );
    expect(bindings).toHaveLength(1);
    expect(bindings[0]!.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'Role',
      name: expect.any(String),
    });
    const role = object('Role', bindings[0]!.roleRef.name);
    // in the namespace the resolver reads (its service is `<name>.<namespace>`)
    const k8s = runningConfig(loadBalancer, 'load-balancer.yaml').exporters.loadbalancing!.resolver!.k8s!;
    expect(role.metadata.namespace).toBe(k8s.service!.split('.')[1]);
    expect(role.rules).toEqual([
      { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['get', 'list', 'watch'] },
    ]);
    // no other workload has an account or a token: only the load balancers read the API
    for (const workload of [collector, gateway]) {
      expect(workload.spec.template.spec.serviceAccountName, workload.metadata.name).toBeUndefined();
    }
    expect(gateway.spec.template.spec.automountServiceAccountToken).toBe(false);
  });

  it.for([
    ['load balancers', 'load-balancer.yaml', 'loadbalancing'],
    ['gateways', 'gateway.yaml', 'otlphttp/jaeger'],
  ] as const)("keeps the %s' sending queue on each pod's persistent volume", ([, file, exporter]) => {
    const workload = file === 'gateway.yaml' ? gateway : loadBalancer;
    const config = runningConfig(workload, file);
    const queue = config.exporters[exporter]!.sending_queue!;
    expect(queue.enabled).toBe(true);
    expect(config.service.extensions).toContain(queue.storage);
    const directory = config.extensions[queue.storage!]!.directory!;
    expect(directory).toBe(environmentOf(containerOf(workload)).COLLECTOR_STORAGE_DIR);

    const mount = containerOf(workload).volumeMounts?.find((candidate) =>
      directory.startsWith(`${candidate.mountPath}/`),
    );
    expect(mount, `${directory} is on a mount`).toBeDefined();
    const claim = workload.spec.volumeClaimTemplates?.find((template) => template.metadata.name === mount!.name);
    expect(
      claim,
      `${mount!.name} is a volume claim template: a volume per pod, kept across its restarts`,
    ).toBeDefined();
    expect(claim!.spec.accessModes).toEqual(['ReadWriteOnce']);
    expect(mount!.readOnly).not.toBe(true);
    // the image's user (10001) writes there
    expect(workload.spec.template.spec.securityContext?.fsGroup).toBe(
      workload.spec.template.spec.securityContext?.runAsUser,
    );
  });

  it('scales the gateways with a HorizontalPodAutoscaler on CPU and memory, from 3, before their memory limiter refuses spans', () => {
    const autoscalers = objects.filter((item) => item.kind === 'HorizontalPodAutoscaler');
    expect(autoscalers).toHaveLength(1);
    const hpa = autoscalers[0]!;
    expect(hpa.spec.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      name: gateway.metadata.name,
    });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(3);
    expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
    // the autoscaler owns the number: none in the StatefulSet, which every `kubectl apply` would set again
    expect(gateway.spec.replicas).toBeUndefined();

    const target = (resource: string) =>
      hpa.spec.metrics.find(
        (metric: { type: string; resource?: { name: string } }) =>
          metric.type === 'Resource' && metric.resource?.name === resource,
      )?.resource.target;
    expect(target('cpu')).toMatchObject({ type: 'Utilization', averageUtilization: expect.any(Number) });
    expect(target('memory')).toMatchObject({ type: 'Utilization', averageUtilization: expect.any(Number) });

    // utilisation is of the requests; memory_limiter refuses spans above (limit% - spike%) of the limit
    const resources = containerOf(gateway).resources!;
    expect(resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    const bytes = (quantity: string) => Number(/^(\d+)Gi$/.exec(quantity)?.[1]) * 2 ** 30 || Number.NaN;
    const limiter = runningConfig(gateway, 'gateway.yaml').processors.memory_limiter!;
    const refusesAbove =
      (bytes(resources.limits!.memory!) * (limiter.limit_percentage! - limiter.spike_limit_percentage!)) / 100;
    const scalesAbove = (bytes(resources.requests!.memory!) * target('memory').averageUtilization) / 100;
    expect(scalesAbove).toBeLessThan(refusesAbove);

    // in slowly: one gateway at a time (each removal moves its traces and loses those awaiting a decision)
    expect(hpa.spec.behavior.scaleDown.policies).toEqual([expect.objectContaining({ type: 'Pods', value: 1 })]);
  });

  it('runs two load balancers and keeps one through a drain; the gateways lose one at a time', () => {
    expect(loadBalancer.spec.replicas).toBe(2);
    const budgetOf = (workload: Workload) =>
      objects.filter(
        (item) =>
          item.kind === 'PodDisruptionBudget' &&
          Object.entries(item.spec.selector.matchLabels as Record<string, string>).every(
            ([key, value]) => workload.spec.template.metadata.labels[key] === value,
          ),
      );
    expect(budgetOf(loadBalancer).map((budget) => budget.spec)).toEqual([expect.objectContaining({ minAvailable: 1 })]);
    expect(budgetOf(gateway).map((budget) => budget.spec)).toEqual([expect.objectContaining({ maxUnavailable: 1 })]);
  });

  it('names the collector after its pod: the instance of the per-service sums it writes', () => {
    const instance = containerOf(collector).env?.find((variable) => variable.name === 'COLLECTOR_INSTANCE_ID');
    expect(instance?.valueFrom).toEqual({ fieldRef: { fieldPath: 'metadata.name' } });
    // the config, with the manifest's variables, sets the pod's name (the downward API's stand-in here)
    const perService = runningConfig(collector, 'config.yaml').processors['transform/per-service'] as {
      metric_statements: Array<{ statements: string[] }>;
    };
    expect(perService.metric_statements.flatMap(({ statements }) => statements)).toContain(
      'set(resource.attributes["service.instance.id"], "<metadata.name>")',
    );
    // one replica: a process's exports moving to a second would be counted again there
    expect(collector.spec.replicas).toBe(1);
  });

  it("gives the app the collector's address and its pod's name as service.instance.id (app/agent.yaml)", () => {
    const [app] = objectsOf(join(kubernetesDir, 'app/agent.yaml')) as Workload[];
    const env = app!.spec.template.spec.containers[0]!.env ?? [];
    const value = (name: string) => env.find((variable) => variable.name === name)?.value;
    expect(value('OTEL_SERVICE_NAME')).toBeTruthy();
    expect(value('NODE_OPTIONS')).toBe('--import otel-tool-calls/register');

    const endpoint = serviceAddress(value('OTEL_EXPORTER_OTLP_ENDPOINT')!);
    expect(endpoint.service.metadata.name).toBe('collector');
    expect(value('OTEL_EXPORTER_OTLP_ENDPOINT')).toMatch(/^http:\/\//);
    expect(endpoint.port).toBe(receiverPort(runningConfig(collector, 'config.yaml'), 'http'));

    const attributes = Object.fromEntries(
      value('OTEL_RESOURCE_ATTRIBUTES')!
        .split(',')
        .map((pair) => pair.split('=') as [string, string]),
    );
    expect(attributes['service.instance.id']).toContain('$(POD_NAME)');
    // $(NAME) expands only a variable defined above it, here from the downward API
    const position = (name: string) => env.findIndex((variable) => variable.name === name);
    for (const [, name] of value('OTEL_RESOURCE_ATTRIBUTES')!.matchAll(/\$\((\w+)\)/g)) {
      expect(position(name!), `${name} is defined before OTEL_RESOURCE_ATTRIBUTES`).toBeGreaterThanOrEqual(0);
      expect(position(name!)).toBeLessThan(position('OTEL_RESOURCE_ATTRIBUTES'));
    }
    expect(env[position('POD_NAME')]!.valueFrom).toEqual({ fieldRef: { fieldPath: 'metadata.name' } });
  });
});

const builtCollector = serviceGate('otelcol-tool-calls');

/** `execFile` with an environment of its own; the exit code and output, never throwing on a code. */
function run(file: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; output: string }>((resolveRun) => {
    execFile(file, args, { env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolveRun({ code: typeof error?.code === 'number' ? error.code : error ? 1 : 0, output: stdout + stderr });
    });
  });
}

describe('deploy/kubernetes: the configs it runs, checked by the collector itself', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'kubernetes-manifests-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  // `validate` builds the exporters: the load balancer's k8s resolver makes its API client there, from a
  // kubeconfig when not in a cluster. This one names a server that nothing serves: validate contacts none.
  const kubeconfig = join(scratch, 'kubeconfig');
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{name: none, cluster: {server: "https://127.0.0.1:1"}}]',
      'contexts: [{name: none, context: {cluster: none, user: none}}]',
      'current-context: none',
      'users: [{name: none, user: {}}]',
    ].join('\n'),
  );

  it.for(WORKLOADS.map(({ workload, file }) => [workload.metadata.name, workload, file] as const))(
    'the built collector validates the config of the %s with the variables its manifest sets',
    async ([, workload, file], ctx) => {
      const binary = builtCollector.path ?? skipOrFail(ctx, builtCollector);
      const environment = {
        PATH: process.env.PATH ?? '',
        KUBECONFIG: kubeconfig,
        ...environmentOf(containerOf(workload)),
      };
      const result = await run(binary, ['validate', `--config=${kubernetesCollectorConfigPath(file)}`], environment);
      expect(result.code, result.output).toBe(0);
    },
  );

  it('the built collector refuses a k8s resolver with no service (the check above can fail)', async (ctx) => {
    const binary = builtCollector.path ?? skipOrFail(ctx, builtCollector);
    const broken = join(scratch, 'load-balancer-no-service.yaml');
    writeFileSync(broken, kubernetesConfigText('load-balancer.yaml').replace(/service: \S+/, 'service: ""'));
    const result = await run(binary, ['validate', `--config=${broken}`], { PATH: '', KUBECONFIG: kubeconfig });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('no service specified');
  });

  it('kubectl kustomize renders it, the workloads mounting the generated ConfigMaps by their hashed names', async (ctx) => {
    const kubectl = findBinary('kubectl');
    if (!kubectl)
      return ctx.skip('kubectl is not installed (kubectl kustomize renders deploy/kubernetes without a cluster)');
    const result = await run(kubectl, ['kustomize', kubernetesDir], { PATH: process.env.PATH ?? '', HOME: scratch });
    expect(result.code, result.output).toBe(0);
    const rendered = parseAllDocuments(result.output).map((document) => document.toJS() as K8sObject);
    for (const { workload, file } of WORKLOADS) {
      const renderedWorkload = rendered.find(
        (item) => item.kind === workload.kind && item.metadata.name === workload.metadata.name,
      ) as Workload;
      const configMapName = renderedWorkload.spec.template.spec.volumes?.find((volume) => volume.configMap)?.configMap
        ?.name;
      const configMap = rendered.find((item) => item.kind === 'ConfigMap' && item.metadata.name === configMapName);
      expect(configMapName, workload.metadata.name).toMatch(/-[a-z0-9]{10}$/);
      expect(configMap?.data?.[file]).toBe(kubernetesConfigText(file));
      expect(configMap?.metadata.namespace).toBe(namespace);
    }
    expect(rendered.filter((item) => item.kind !== 'ConfigMap')).toHaveLength(objects.length);
  });
});
