/**
 * An open-loop OTLP/HTTP sender: export requests started on a fixed schedule (request k at k ÷ rate seconds),
 * whatever the collector's answers, as a fleet of apps sends; at most `maxInFlight` at once, so that a
 * collector that cannot keep up shows as requests started late, not as a sender that quietly slows down.
 * A request counts as delivered only when the collector answered 2xx (what an SDK's exporter counts).
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { type RequestTemplate, writeTraceIds } from './trace-template.js';

export interface PacedSendOptions {
  /** The OTLP/HTTP traces endpoint: `http://127.0.0.1:<port>/v1/traces`. */
  readonly url: string;
  readonly template: RequestTemplate;
  /** The first 8 bytes of every trace ID this sender makes. */
  readonly prefix: Buffer;
  /** Its first trace sequence number (trace IDs of earlier sends of the same prefix stay distinct). */
  readonly firstSequence?: number;
  readonly requestsPerSecond: number;
  readonly seconds: number;
  readonly maxInFlight: number;
  /** Called as each request is written, with its runs' trace IDs (hex). */
  readonly onSend?: (traceIds: readonly string[], at: number) => void;
}

export interface PacedSendResult {
  readonly requests: number;
  readonly acknowledged: number;
  /** Requests not answered 2xx, by status or error code. */
  readonly failures: Record<string, number>;
  /** Traces and spans of the acknowledged requests; of those traces, the ones with an error. */
  readonly traces: number;
  readonly spans: number;
  readonly errorTraces: number;
  /** The trace sequence number after the last one used. */
  readonly nextSequence: number;
  /** How late the last request started against its schedule (0: on time). */
  readonly lateSeconds: number;
  /** From the first request's start to the last one's answer. */
  readonly elapsedSeconds: number;
  /** The collector's answer times, in ms: median and 99th percentile. */
  readonly responseMs: { readonly p50: number; readonly p99: number };
}

export async function sendPaced(options: PacedSendOptions): Promise<PacedSendResult> {
  const { template, prefix, maxInFlight } = options;
  if (prefix.length !== 8) throw new Error(`a sender's trace ID prefix has 8 bytes, not ${prefix.length}`);
  const url = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: maxInFlight });
  const total = Math.max(1, Math.round(options.requestsPerSecond * options.seconds));
  const failures: Record<string, number> = {};
  const responseMs: number[] = [];
  let acknowledged = 0;
  let inFlight = 0;
  let lateMs = 0;
  let wake: (() => void) | undefined;
  const firstSequence = options.firstSequence ?? 0;
  const buffers: Buffer[] = [];

  const send = (body: Buffer) =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const fail = (why: string) => {
        failures[why] = (failures[why] ?? 0) + 1;
        resolve();
      };
      const outgoing = request(
        url,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/x-protobuf', 'content-length': body.length },
          timeout: 30_000,
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            const status = response.statusCode ?? 0;
            if (status >= 200 && status < 300) {
              acknowledged++;
              responseMs.push(performance.now() - started);
              resolve();
            } else {
              fail(`HTTP ${status}`);
            }
          });
          response.on('error', (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error('timeout')));
      outgoing.on('error', (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
      if (options.onSend) {
        const ids = template.traceIdOffsets.map((offsets) => body.toString('hex', offsets[0], (offsets[0] ?? 0) + 16));
        options.onSend(ids, performance.timeOrigin + performance.now());
      }
      outgoing.end(body);
    });

  const t0 = performance.now();
  const pending: Promise<void>[] = [];
  for (let k = 0; k < total; ) {
    const now = performance.now();
    while (k < total && t0 + (k * 1000) / options.requestsPerSecond <= now && inFlight < maxInFlight) {
      lateMs = Math.max(0, now - (t0 + (k * 1000) / options.requestsPerSecond));
      const body = buffers.pop() ?? Buffer.allocUnsafe(template.body.length);
      template.body.copy(body);
      writeTraceIds(template, body, prefix, firstSequence + k * template.tracesPerRequest);
      inFlight++;
      pending.push(
        send(body).then(() => {
          inFlight--;
          buffers.push(body);
          wake?.();
        }),
      );
      k++;
    }
    if (k >= total) break;
    const untilNext = t0 + (k * 1000) / options.requestsPerSecond - performance.now();
    await new Promise<void>((resolve) => {
      wake = resolve;
      // at most every few ms: the schedule is kept to the millisecond, the loop costs nothing between
      setTimeout(resolve, inFlight >= maxInFlight ? 50 : Math.max(1, Math.min(untilNext, 20)));
    });
    wake = undefined;
  }
  await Promise.all(pending);
  const elapsedSeconds = (performance.now() - t0) / 1000;
  agent.destroy();
  responseMs.sort((a, b) => a - b);
  const at = (q: number) => responseMs[Math.min(responseMs.length - 1, Math.floor(q * responseMs.length))] ?? NaN;
  return {
    requests: total,
    acknowledged,
    failures,
    traces: acknowledged * template.tracesPerRequest,
    spans: acknowledged * template.tracesPerRequest * template.spansPerTrace,
    errorTraces: acknowledged * template.errorTraces,
    nextSequence: firstSequence + total * template.tracesPerRequest,
    lateSeconds: lateMs / 1000,
    elapsedSeconds,
    responseMs: { p50: at(0.5), p99: at(0.99) },
  };
}
