// A stand-in for an OpenTelemetry collector, on 127.0.0.1: it takes the OTLP/HTTP JSON spans of
// both processes, so that the example can show them as one tree without any infrastructure.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CollectedSpan {
  readonly service: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP span kind: 1 internal, 2 server, 3 client. */
  readonly kind: number;
  readonly startNanos: bigint;
  readonly endNanos: bigint;
  readonly failed: boolean;
}

interface OtlpJson {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: { stringValue?: string } }[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        startTimeUnixNano: string;
        endTimeUnixNano: string;
        status?: { code?: number };
      }[];
    }[];
  }[];
}

export async function startSpanCollector() {
  const spans: CollectedSpan[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as OtlpJson;
      for (const resource of body.resourceSpans ?? []) {
        const service =
          resource.resource?.attributes?.find((attribute) => attribute.key === 'service.name')?.value.stringValue ??
          'unknown';
        for (const span of (resource.scopeSpans ?? []).flatMap((scope) => scope.spans ?? [])) {
          spans.push({
            service,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            kind: span.kind,
            startNanos: BigInt(span.startTimeUnixNano),
            endNanos: BigInt(span.endTimeUnixNano),
            failed: span.status?.code === 2,
          });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    } catch {
      response.writeHead(400).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const KIND = ['', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];

/** The spans as one tree per trace: children under their parent, each with its process and kind. */
export function formatTree(spans: readonly CollectedSpan[]): string {
  const ids = new Set(spans.map((span) => span.spanId));
  const byStart = (a: CollectedSpan, b: CollectedSpan) => (a.startNanos < b.startNanos ? -1 : 1);
  const rows: string[] = [];
  const walk = (span: CollectedSpan, prefix: string, last: boolean, root: boolean) => {
    const branch = root ? '' : last ? '└─ ' : '├─ ';
    const ms = Number(span.endNanos - span.startNanos) / 1e6;
    rows.push(
      `${prefix}${branch}${span.name} [${KIND[span.kind] ?? span.kind}] ${span.service} ${ms.toFixed(1)} ms${span.failed ? ' ERROR' : ''}`,
    );
    const children = spans.filter((child) => child.parentSpanId === span.spanId).sort(byStart);
    const next = root ? '' : prefix + (last ? '   ' : '│  ');
    children.forEach((child, index) => {
      walk(child, next, index === children.length - 1, false);
    });
  };
  for (const root of spans.filter((span) => !ids.has(span.parentSpanId)).sort(byStart)) walk(root, '', true, true);
  return rows.join('\n');
}
