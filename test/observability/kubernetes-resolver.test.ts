/**
 * The load balancer of deploy/kubernetes/ (its config as the manifests load it: the k8s resolver), run on the
 * built collector against a stand-in for the Kubernetes API (fixtures/kubernetes-api.ts: one EndpointSlice of
 * the gateways' Service, list and watch), with gateways on 127.0.0.2 to 127.0.0.5, one port, as pods have an
 * address each. It shows what docs/deploy/kubernetes.md says of the resolver:
 * - what it asks of the API is what the Role grants: list and watch EndpointSlices, in the namespace and of
 *   the Service that the manifests name;
 * - every trace goes whole to one gateway of the slice, and a gateway added takes a share of the traces from
 *   the others, a gateway removed gives its own to the others, nothing else moves (consistent hashing);
 * - an endpoint that is not ready stays in the ring (contrib 0.140.1: the resolver reads no condition,
 *   open-telemetry/opentelemetry-collector-contrib#50436), until it leaves the slice with its pod.
 * The gateways here forward what they receive, as OTLP/JSON, to one receiver (a path each): they stand for
 * the tail samplers, whose sampling is not what is tested. Only the listen addresses and the resolver's port
 * differ from the manifests' config (a test cannot have 4317 on every loopback address).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { kubernetesCollectorConfigPath, kubernetesDir } from '../../scripts/kubernetes-collector-configs.js';
import { freePort } from '../helpers/free-port.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { skipOrFail, waitFor } from '../helpers/prometheus.js';
import { answers, type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { serviceGate } from '../helpers/service-binaries.js';
import { type SliceEndpoint, startKubernetesApi } from './fixtures/kubernetes-api.js';

const collector = serviceGate('otelcol-tool-calls');
const GATEWAYS = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'] as const;
type Gateway = (typeof GATEWAYS)[number];

const namespace = (parse(readFileSync(join(kubernetesDir, 'kustomization.yaml'), 'utf8')) as { namespace: string })
  .namespace;
const rbac = parseAllDocuments(readFileSync(join(kubernetesDir, 'load-balancer-rbac.yaml'), 'utf8')).map(
  (document) => document.toJS() as { kind: string; metadata: { namespace: string }; rules?: RoleRule[] },
);
interface RoleRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}
const role = rbac.find((item) => item.kind === 'Role')!;

/** A gateway's stand-in: OTLP gRPC in on its address, OTLP/JSON out to the receiver at its own path, at once. */
const gatewayConfig = `
extensions:
  healthcheckv2:
    use_v2: true
    http:
      endpoint: "127.0.0.1:\${env:HEALTH_PORT}"
receivers:
  otlp:
    protocols:
      grpc:
        endpoint: "\${env:ADDRESS}"
exporters:
  otlphttp:
    traces_endpoint: "\${env:FORWARD_TO}"
    encoding: json
    compression: none
    retry_on_failure:
      enabled: false
    sending_queue:
      enabled: false
service:
  extensions: [healthcheckv2]
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [otlphttp]
  telemetry:
    metrics:
      level: none
`;

/** One span per trace ID, named after the round it is sent in: OTLP/JSON as an app would post it. */
function tracesBody(traceIds: readonly string[], round: string): string {
  const now = BigInt(Date.now()) * 1_000_000n;
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'kubernetes-resolver-test' } }] },
        scopeSpans: [
          {
            scope: { name: 'kubernetes-resolver-test' },
            spans: traceIds.map((traceId, index) => ({
              traceId,
              spanId: (index + 1).toString(16).padStart(16, '0'),
              name: round,
              kind: 1,
              startTimeUnixNano: String(now),
              endTimeUnixNano: String(now + 1_000_000n),
            })),
          },
        ],
      },
    ],
  });
}

const randomTraceId = () => Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16)).join('');

describe('the load balancer of deploy/kubernetes follows the gateways through the Kubernetes API', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'kubernetes-resolver-'));
  const processes: ServerProcess[] = [];
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let api: Awaited<ReturnType<typeof startKubernetesApi>>;
  let loadBalancerHttp = '';
  /** The trace IDs that a round sends (the same ones every round, so that a route's change shows). */
  const traceIds = Array.from({ length: 150 }, randomTraceId);

  let started = false;

  beforeAll(async () => {
    const binary = collector.path;
    if (!binary) return;
    receiver = await startOtlpReceiver();
    const gatewayPort = await freePort();
    api = await startKubernetesApi({ namespace, service: 'gateways', port: gatewayPort });
    writeFileSync(join(scratch, 'gateway.yaml'), gatewayConfig);
    for (const address of GATEWAYS) {
      const health = await freePort();
      processes.push(
        await startServerProcess(`gateway ${address}`, binary, [`--config=${join(scratch, 'gateway.yaml')}`], {
          env: {
            ADDRESS: `${address}:${gatewayPort}`,
            HEALTH_PORT: String(health),
            FORWARD_TO: `${receiver.url}/${address}`,
          },
          ready: () => answers(`http://127.0.0.1:${health}/status`),
        }),
      );
    }

    api.setEndpoints([
      { address: '127.0.0.2', ready: true },
      { address: '127.0.0.3', ready: true },
    ]);
    writeFileSync(join(scratch, 'kubeconfig'), api.kubeconfig);
    // the manifests' load balancer config; only the gateways' port is this test's
    const config = readFileSync(kubernetesCollectorConfigPath('load-balancer.yaml'), 'utf8');
    expect(config).toContain('ports: [4317]');
    writeFileSync(join(scratch, 'load-balancer.yaml'), config.replace('ports: [4317]', `ports: [${gatewayPort}]`));
    const [health, grpc, http, metrics] = [await freePort(), await freePort(), await freePort(), await freePort()];
    loadBalancerHttp = `http://127.0.0.1:${http}`;
    processes.push(
      await startServerProcess('load balancer', binary, [`--config=${join(scratch, 'load-balancer.yaml')}`], {
        env: {
          KUBECONFIG: join(scratch, 'kubeconfig'),
          COLLECTOR_LISTEN_HOST: '127.0.0.1',
          COLLECTOR_HEALTH_PORT: String(health),
          COLLECTOR_OTLP_GRPC_PORT: String(grpc),
          COLLECTOR_OTLP_HTTP_PORT: String(http),
          COLLECTOR_METRICS_PORT: String(metrics),
          COLLECTOR_STORAGE_DIR: join(scratch, 'queue'),
          COLLECTOR_RETRY_INITIAL_INTERVAL: '200ms',
        },
        ready: () => answers(`http://127.0.0.1:${health}/status`),
      }),
    );
    started = true;
  }, 90_000);

  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop()));
    await api?.close();
    await receiver?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** Where each span of `round` arrived: trace ID → the gateways that got it. */
  function arrivals(round: string): Map<string, Gateway[]> {
    const routes = new Map<string, Gateway[]>();
    for (const request of receiver.requests) {
      const gateway = request.path.slice(1) as Gateway;
      const body = JSON.parse(request.body.toString()) as {
        resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ traceId: string; name: string }> }> }>;
      };
      for (const span of body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans))) {
        if (span.name !== round) continue;
        routes.set(span.traceId.toLowerCase(), [...(routes.get(span.traceId.toLowerCase()) ?? []), gateway]);
      }
    }
    return routes;
  }

  /** Sends every trace once, named `round`, and waits until each has arrived; trace ID → its gateway. */
  async function sendRound(round: string): Promise<Map<string, Gateway>> {
    const response = await fetch(`${loadBalancerHttp}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: tracesBody(traceIds, round),
    });
    expect(response.status).toBe(200);
    await receiver.waitUntil(() => arrivals(round).size === traceIds.length, 20_000, `the ${round} traces`);
    const routes = arrivals(round);
    for (const [traceId, gateways] of routes) expect(gateways, `${traceId} went to one gateway once`).toHaveLength(1);
    return new Map([...routes].map(([traceId, [gateway]]) => [traceId, gateway!]));
  }

  /** Changes the slice, then sends probe rounds until `changed` holds for one (the resolver has seen it). */
  async function changeSlice(endpoints: SliceEndpoint[], changed: (routes: Map<string, Gateway>) => boolean) {
    api.setEndpoints(endpoints);
    let probe = 0;
    await waitFor(
      'the load balancer to follow the slice',
      async () => (changed(await sendRound(`probe ${api.requests.length} ${probe++}`)) ? true : undefined),
      { timeoutMs: 20_000 },
    );
  }

  const gatewaysOf = (routes: Map<string, Gateway>) => new Set(routes.values());
  const moved = (before: Map<string, Gateway>, after: Map<string, Gateway>) =>
    [...before].filter(([traceId, gateway]) => after.get(traceId) !== gateway).map(([traceId]) => traceId);

  it('asks the API for what its Role grants: list and watch the EndpointSlices of the gateways, in its namespace', (ctx) => {
    if (!started) return skipOrFail(ctx, collector);
    expect(api.requests.length).toBeGreaterThanOrEqual(2);
    const grants = (verb: string) =>
      role.rules!.some(
        (rule) =>
          rule.apiGroups.includes('discovery.k8s.io') &&
          rule.resources.includes('endpointslices') &&
          rule.verbs.includes(verb),
      );
    const verbs = new Set<string>();
    for (const request of api.requests) {
      expect(request.method).toBe('GET');
      expect(request.path).toBe(`/apis/discovery.k8s.io/v1/namespaces/${role.metadata.namespace}/endpointslices`);
      expect(request.query.get('labelSelector')).toBe('kubernetes.io/service-name=gateways');
      verbs.add(request.query.get('watch') === 'true' ? 'watch' : 'list');
    }
    expect([...verbs].sort()).toEqual(['list', 'watch']);
    for (const verb of verbs) expect(grants(verb), `the Role grants ${verb}`).toBe(true);
  });

  it('sends each trace to one gateway of the slice; a gateway added takes a share from the others, and only that moves', async (ctx) => {
    if (!started) return skipOrFail(ctx, collector);
    const two = await sendRound('two gateways');
    expect(gatewaysOf(two)).toEqual(new Set(['127.0.0.2', '127.0.0.3']));

    await changeSlice(
      [
        { address: '127.0.0.2', ready: true },
        { address: '127.0.0.3', ready: true },
        { address: '127.0.0.4', ready: true },
      ],
      (routes) => gatewaysOf(routes).has('127.0.0.4'),
    );
    const three = await sendRound('three gateways');
    const movedTraces = moved(two, three);
    // every trace that moved, moved to the new gateway; about a third of them did (1/N)
    expect(new Set(movedTraces.map((traceId) => three.get(traceId)))).toEqual(new Set(['127.0.0.4']));
    expect(movedTraces.length).toBeGreaterThan(traceIds.length / 10);
    expect(movedTraces.length).toBeLessThan(traceIds.length * 0.6);
  });

  it('keeps a gateway whose endpoint is not ready in the ring (contrib 0.140.1), and moves only its traces once it leaves the slice', async (ctx) => {
    if (!started) return skipOrFail(ctx, collector);
    const before = await sendRound('before not ready');
    // 127.0.0.3 not ready; 127.0.0.5 added in the same change, so that its first trace says the change was read
    await changeSlice(
      [
        { address: '127.0.0.2', ready: true },
        { address: '127.0.0.3', ready: false },
        { address: '127.0.0.4', ready: true },
        { address: '127.0.0.5', ready: true },
      ],
      (routes) => gatewaysOf(routes).has('127.0.0.5'),
    );
    const notReady = await sendRound('127.0.0.3 not ready');
    expect(gatewaysOf(notReady).has('127.0.0.3')).toBe(true);
    expect(new Set(moved(before, notReady).map((traceId) => notReady.get(traceId)))).toEqual(new Set(['127.0.0.5']));

    // its pod deleted: its endpoint leaves the slice
    await changeSlice(
      [
        { address: '127.0.0.2', ready: true },
        { address: '127.0.0.4', ready: true },
        { address: '127.0.0.5', ready: true },
      ],
      (routes) => !gatewaysOf(routes).has('127.0.0.3'),
    );
    const gone = await sendRound('127.0.0.3 gone');
    const itsTraces = [...notReady].filter(([, gateway]) => gateway === '127.0.0.3').map(([traceId]) => traceId);
    expect(itsTraces.length).toBeGreaterThan(0);
    expect(moved(notReady, gone).sort()).toEqual(itsTraces.sort());
  });
});
