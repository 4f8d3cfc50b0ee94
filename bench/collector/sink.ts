/**
 * The backend of the collector group, in Jaeger's place: an OTLP receiver on 127.0.0.1 over HTTP (what a
 * gateway's `otlphttp` exporter sends to) and gRPC (what the load balancer sends to) that keeps, per trace, the
 * spans that arrived, whether one of them failed, and when the first one arrived. It stores nothing else and
 * answers at once, so that what is measured is the collectors, not a database.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import { Server as GrpcServer, ServerCredentials, type ServiceDefinition } from '@grpc/grpc-js';
import { readSpans } from './otlp-wire.js';

export interface ArrivedTrace {
  spans: number;
  error: boolean;
  /** When its first span arrived (ms since the epoch, performance.timeOrigin-based). */
  readonly firstAt: number;
}

/** opentelemetry.proto.collector.trace.v1.TraceService, its messages left as bytes. */
const TRACE_SERVICE: ServiceDefinition = {
  Export: {
    path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
    requestStream: false,
    responseStream: false,
    requestSerialize: (message: Buffer) => message,
    requestDeserialize: (bytes: Buffer) => bytes,
    responseSerialize: (message: Buffer) => message,
    responseDeserialize: (bytes: Buffer) => bytes,
  },
};

export interface OtlpSink {
  /** `http://127.0.0.1:<port>`: a gateway's COLLECTOR_BACKEND_OTLP_ENDPOINT. */
  readonly httpUrl: string;
  /** `127.0.0.1:<port>`: a gateway address for the load balancer. */
  readonly grpcAddress: string;
  /** The traces that arrived since the last `reset()`, by trace ID (hex). */
  readonly traces: ReadonlyMap<string, ArrivedTrace>;
  /** Spans that arrived since the last `reset()`. */
  spans(): number;
  reset(): void;
  stop(): Promise<void>;
}

export async function startSink(): Promise<OtlpSink> {
  let traces = new Map<string, ArrivedTrace>();
  let spans = 0;
  const receive = (request: Buffer, at: number) => {
    readSpans(request, (traceId, error) => {
      spans++;
      const trace = traces.get(traceId);
      if (trace) {
        trace.spans++;
        trace.error ||= error;
      } else {
        traces.set(traceId, { spans: 1, error, firstAt: at });
      }
    });
  };

  const http: HttpServer = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      try {
        const body = Buffer.concat(chunks);
        receive(request.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body, at);
        response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      } catch (error) {
        response.writeHead(400).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const httpPort = (http.address() as { port: number }).port;

  const grpc = new GrpcServer({ 'grpc.max_receive_message_length': 64 * 1024 * 1024 });
  grpc.addService(TRACE_SERVICE, {
    Export: (call: { request: Buffer }, callback: (error: Error | null, response: Buffer) => void) => {
      try {
        receive(call.request, performance.timeOrigin + performance.now());
        callback(null, Buffer.alloc(0));
      } catch (error) {
        callback(error as Error, Buffer.alloc(0));
      }
    },
  });
  const grpcPort = await new Promise<number>((resolve, reject) =>
    grpc.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, port) =>
      error ? reject(error) : resolve(port),
    ),
  );

  return {
    httpUrl: `http://127.0.0.1:${httpPort}`,
    grpcAddress: `127.0.0.1:${grpcPort}`,
    get traces() {
      return traces;
    },
    spans: () => spans,
    reset() {
      traces = new Map();
      spans = 0;
    },
    async stop() {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
      await new Promise<void>((resolve) => grpc.tryShutdown(() => resolve()));
    },
  };
}
