/**
 * docker-compose.otel.yml as the stack runner reads it: for each service, the image, the command, the
 * files it mounts, the named volumes and the ports it publishes. `npm run stack` runs what this says, so
 * that compose and the runner keep one set of configs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export const repoRoot = join(import.meta.dirname, '..', '..');
export const composeFile = join(repoRoot, 'docker-compose.otel.yml');

export interface ComposeService {
  readonly name: string;
  readonly image: string;
  readonly command: readonly string[];
  /** Bind mounts: a file or folder of the repository at a path in the container. */
  readonly mounts: ReadonlyArray<{ readonly host: string; readonly container: string }>;
  /** Named volumes at a path in the container. */
  readonly volumes: ReadonlyArray<{ readonly name: string; readonly container: string }>;
  /** Published ports: host port → container port. */
  readonly ports: ReadonlyArray<{ readonly host: number; readonly container: number }>;
  /** The compose profiles it belongs to (none: it always runs). */
  readonly profiles: readonly string[];
}

interface RawService {
  image: string;
  profiles?: string[];
  command?: string[];
  volumes?: string[];
  ports?: string[];
}

export function readComposeServices(file = composeFile): Map<string, ComposeService> {
  const raw = parse(readFileSync(file, 'utf8')) as { services: Record<string, RawService> };
  const services = new Map<string, ComposeService>();
  for (const [name, service] of Object.entries(raw.services)) {
    const mounts: Array<{ host: string; container: string }> = [];
    const volumes: Array<{ name: string; container: string }> = [];
    for (const volume of service.volumes ?? []) {
      const [source = '', container = ''] = volume.split(':');
      if (/^[./]/.test(source)) mounts.push({ host: join(repoRoot, source), container });
      else volumes.push({ name: source, container });
    }
    const ports = (service.ports ?? []).map((mapping) => {
      const [host, container] = mapping.split(':').map(Number);
      return { host: host!, container: container! };
    });
    services.set(name, {
      name,
      image: service.image,
      command: service.command ?? [],
      mounts,
      volumes,
      ports,
      profiles: service.profiles ?? [],
    });
  }
  return services;
}

/** A path inside the service's container as the path on this machine: a mounted file, or a named volume's folder. */
export function hostPath(service: ComposeService, containerPath: string, volumesDir: string): string | undefined {
  for (const { host, container } of service.mounts) {
    if (containerPath === container) return host;
    if (containerPath.startsWith(`${container}/`)) return join(host, containerPath.slice(container.length + 1));
  }
  for (const { name, container } of service.volumes) {
    if (containerPath === container) return join(volumesDir, name);
    if (containerPath.startsWith(`${container}/`))
      return join(volumesDir, name, containerPath.slice(container.length + 1));
  }
  return undefined;
}
