/**
 * A load sender of the collector group, in a process of its own (bundled, spawned with an IPC channel by
 * bench/collector/load.ts): it builds its request template, says `ready`, sends on `go` at its share of the
 * rate (bench/collector/paced-sender.ts), and answers with its result and the CPU it used.
 */
import { parseArgs } from 'node:util';
import { sendPaced } from './paced-sender.js';
import { requestTemplate } from './trace-template.js';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    prefix: { type: 'string' },
    'first-sequence': { type: 'string', default: '0' },
    'spans-per-trace': { type: 'string' },
    'traces-per-request': { type: 'string' },
    'error-every': { type: 'string' },
    'requests-per-second': { type: 'string' },
    seconds: { type: 'string' },
    'max-in-flight': { type: 'string', default: '16' },
  },
});
const send = process.send?.bind(process);
if (!send) throw new Error('bench/collector/sender.ts runs as a child with an IPC channel');
const number = (name: keyof typeof values) => {
  const value = Number(values[name]);
  if (!Number.isFinite(value)) throw new Error(`--${name} takes a number (not ${JSON.stringify(values[name])})`);
  return value;
};

const template = await requestTemplate({
  spansPerTrace: number('spans-per-trace'),
  tracesPerRequest: number('traces-per-request'),
  errorEvery: number('error-every'),
});
process.once('message', async () => {
  const cpuBefore = process.cpuUsage();
  const result = await sendPaced({
    url: values.url as string,
    template,
    prefix: Buffer.from(values.prefix as string, 'hex'),
    firstSequence: number('first-sequence'),
    requestsPerSecond: number('requests-per-second'),
    seconds: number('seconds'),
    maxInFlight: number('max-in-flight'),
  });
  const cpu = process.cpuUsage(cpuBefore);
  send({ result, cpuSeconds: (cpu.user + cpu.system) / 1e6 }, () => process.disconnect());
});
send('ready');
