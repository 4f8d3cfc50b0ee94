/**
 * The load of one step: `senders` processes (bench/collector/sender.ts, bundled), each at its share of the
 * rate, started together once each has built its template; their results added up.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { PacedSendResult } from './paced-sender.js';
import type { TemplateShape } from './trace-template.js';

export interface LoadSettings extends TemplateShape {
  /** The bundled sender script. */
  readonly senderScript: string;
  readonly senders: number;
  /** Requests each sender has in flight at most. */
  readonly maxInFlight: number;
}

/** The senders' results added up; `lateSeconds` and `elapsedSeconds` are the latest over the senders. */
export interface LoadResult
  extends Pick<
    PacedSendResult,
    'requests' | 'acknowledged' | 'failures' | 'traces' | 'spans' | 'errorTraces' | 'lateSeconds' | 'elapsedSeconds'
  > {
  /** Each sender's result. */
  readonly senders: readonly PacedSendResult[];
  readonly responseMsP99: number;
  readonly cpuSeconds: number;
}

interface SenderReply {
  readonly result: PacedSendResult;
  readonly cpuSeconds: number;
}

/**
 * Sends `spansPerSecond` for `seconds` to `url` (an OTLP/HTTP traces endpoint). Trace IDs: `prefix` (6 bytes,
 * this step's) then the sender's number, then a sequence number, so that no two runs anywhere share one.
 */
export async function runLoad(
  url: string,
  spansPerSecond: number,
  seconds: number,
  prefix: Buffer,
  settings: LoadSettings,
): Promise<LoadResult> {
  if (prefix.length !== 6) throw new Error(`a load's trace ID prefix has 6 bytes, not ${prefix.length}`);
  const requestsPerSecond = spansPerSecond / settings.senders / (settings.tracesPerRequest * settings.spansPerTrace);
  const children: ChildProcess[] = [];
  /** Rejects when the sender exits; handled here, so that a normal exit after its reply is no unhandled rejection. */
  const exited = (child: ChildProcess) => {
    const failed = new Promise<never>((_, reject) =>
      child.once('exit', (code, signal) => reject(new Error(`a sender exited with ${signal ?? code}`))),
    );
    failed.catch(() => undefined);
    return failed;
  };
  try {
    const replies = Array.from({ length: settings.senders }, (_, index) => {
      const senderPrefix = Buffer.concat([prefix, Buffer.from([index >> 8, index & 0xff])]).toString('hex');
      const child = spawn(
        process.execPath,
        [
          settings.senderScript,
          ...['--url', url, '--prefix', senderPrefix],
          ...['--spans-per-trace', String(settings.spansPerTrace)],
          ...['--traces-per-request', String(settings.tracesPerRequest)],
          ...['--error-every', String(settings.errorEvery)],
          ...['--requests-per-second', String(requestsPerSecond), '--seconds', String(seconds)],
          ...['--max-in-flight', String(settings.maxInFlight)],
        ],
        { stdio: ['ignore', 2, 2, 'ipc'] },
      );
      children.push(child);
      const exit = exited(child);
      const ready = new Promise<void>((resolve) => child.once('message', () => resolve()));
      return {
        child,
        ready: Promise.race([ready, exit]),
        reply: () =>
          Promise.race([
            new Promise<SenderReply>((resolve) => child.once('message', (message) => resolve(message as SenderReply))),
            exit,
          ]),
      };
    });
    await Promise.all(replies.map((sender) => sender.ready));
    const results = replies.map((sender) => sender.reply());
    for (const sender of replies) sender.child.send('go');
    const done = await Promise.all(results);
    const sum = (field: 'requests' | 'acknowledged' | 'traces' | 'spans' | 'errorTraces') =>
      done.reduce((total, { result }) => total + result[field], 0);
    const failures: Record<string, number> = {};
    for (const { result } of done) {
      for (const [why, count] of Object.entries(result.failures)) failures[why] = (failures[why] ?? 0) + count;
    }
    return {
      senders: done.map(({ result }) => result),
      requests: sum('requests'),
      acknowledged: sum('acknowledged'),
      failures,
      traces: sum('traces'),
      spans: sum('spans'),
      errorTraces: sum('errorTraces'),
      lateSeconds: Math.max(...done.map(({ result }) => result.lateSeconds)),
      elapsedSeconds: Math.max(...done.map(({ result }) => result.elapsedSeconds)),
      responseMsP99: Math.max(...done.map(({ result }) => result.responseMs.p99)),
      cpuSeconds: done.reduce((total, { cpuSeconds }) => total + cpuSeconds, 0),
    };
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill();
  }
}
