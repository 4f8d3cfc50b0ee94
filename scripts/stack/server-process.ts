/**
 * A server process of the stack (or of a test): its output kept (the tail, for error messages, and the
 * whole of it in a log file when one is given), a bounded wait until it answers, and a `stop()` that always
 * ends it (SIGTERM, then SIGKILL after 10 s).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

export interface ServerProcess {
  /** What the process printed so far (the last 20 000 characters). */
  log(): string;
  /** Whether it has exited. */
  exited(): boolean;
  /** Its process id (undefined if it never started). */
  readonly pid: number | undefined;
  /** Stops it; idempotent. */
  stop(): Promise<void>;
  /** Sends `signal` (SIGKILL: a crash) and resolves once it has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

export interface ServerProcessOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** True once the server answers (its health check). */
  readonly ready: () => Promise<boolean>;
  /** @default 30_000 */
  readonly readyTimeoutMs?: number;
  /** A file that gets everything the process prints, appended. @default none */
  readonly logFile?: string;
}

/**
 * Starts `binary` and waits (at most `readyTimeoutMs`) until `ready()` returns true; a process that exits
 * before that fails the wait with its output. On any failure the process is stopped before the error is thrown.
 */
export async function startServerProcess(
  description: string,
  binary: string,
  args: readonly string[],
  { env, cwd, ready, readyTimeoutMs = 30_000, logFile }: ServerProcessOptions,
): Promise<ServerProcess> {
  const child: ChildProcess = spawn(binary, args, {
    env: { ...process.env, ...env },
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const file = logFile ? createWriteStream(logFile, { flags: 'a' }) : undefined;
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
    file?.write(chunk);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let spawnError: Error | undefined;
  child.once('error', (error) => {
    spawnError = error;
  });
  const exitedPromise = new Promise<void>((resolve) =>
    child.once('close', () => {
      file?.end();
      resolve();
    }),
  );
  const hasExited = () => child.exitCode !== null || child.signalCode !== null || spawnError !== undefined;
  let stopping: Promise<void> | undefined;

  const stop = () => {
    stopping ??= hasExited() ? Promise.resolve() : terminate(child, exitedPromise);
    return stopping;
  };

  try {
    // an exit ends the wait at once (a probe that throws would only be retried until the timeout)
    const deadline = Date.now() + readyTimeoutMs;
    for (;;) {
      if (hasExited()) {
        const why = spawnError
          ? `did not start: ${spawnError.message}`
          : `exited with ${child.exitCode ?? child.signalCode}`;
        throw new Error(`${description}: ${binary} ${why}`);
      }
      if (await ready().catch(() => false)) break;
      if (Date.now() >= deadline)
        throw new Error(`timed out after ${readyTimeoutMs} ms waiting for ${description} to be ready`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- ${description} output ---\n${output}`);
  }
  const kill = async (signal: NodeJS.Signals) => {
    if (hasExited()) return;
    child.kill(signal);
    await exitedPromise;
  };
  return { log: () => output, exited: hasExited, pid: child.pid, stop, kill };
}

/** `fetch(url)` answers 2xx within 2 s. */
export async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Stops `child` (running: `exited` not yet settled): SIGTERM, then SIGKILL if it has not exited within
 * 10 s. Resolves once it has exited.
 */
export async function terminate(child: ChildProcess, exited: Promise<void>): Promise<void> {
  child.kill('SIGTERM');
  const ended = await Promise.race([
    exited.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000)),
  ]);
  if (!ended) {
    child.kill('SIGKILL');
    await exited;
  }
}
