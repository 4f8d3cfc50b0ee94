/**
 * The scale-out tier of the stack (docker-compose.otel.yml's `scale-out` profile): a load balancer that
 * routes each trace by its ID to one of N gateways (tail samplers). The compose file defines three gateways;
 * `--samplers N` runs N, each one more a copy of `gateway-1` with a queue volume of its own.
 */
import type { ComposeService } from './compose-file.js';

export const SCALE_OUT_PROFILE = 'scale-out';
export const LOAD_BALANCER = 'load-balancer';
const GATEWAY = /^gateway-(\d+)$/;

/** The tier's services for `samplers` gateways: the load balancer and gateway-1 … gateway-N. */
export function scaleOutServices(all: ReadonlyMap<string, ComposeService>, samplers: number): ComposeService[] {
  const loadBalancer = all.get(LOAD_BALANCER);
  const template = all.get('gateway-1');
  if (!loadBalancer || !template) throw new Error(`the compose file has no ${LOAD_BALANCER} or gateway-1 service`);
  return [loadBalancer, ...Array.from({ length: samplers }, (_, i) => gatewayNumbered(all, template, i + 1))];
}

/** gateway-`n` as the compose file defines it, else a copy of gateway-1 with its own queue volume. */
export function gatewayNumbered(
  all: ReadonlyMap<string, ComposeService>,
  template: ComposeService,
  n: number,
): ComposeService {
  const name = `gateway-${n}`;
  return (
    all.get(name) ?? {
      ...template,
      name,
      volumes: template.volumes.map((volume) => ({ ...volume, name: volume.name.replace('gateway-1', name) })),
    }
  );
}

export function isGateway(service: string): boolean {
  return GATEWAY.test(service);
}
