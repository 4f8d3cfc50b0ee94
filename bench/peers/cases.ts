/**
 * The peers: other libraries' ways of tracing one tool call, each in its default setting and with
 * content recording off, wrapped around the same tool the listener and the floor call (so their
 * ratios compare the same work). They run on the `peers` process's SDK, which is the `sdk` process's
 * (bench/lib/sdk-world.ts): their own exporters and span processors (Langfuse's LangfuseSpanProcessor,
 * Traceloop's NodeSDK) are left out, so what is measured is each library's per-call code on one
 * shared SDK. None of them records a metric: only the listener also writes a histogram sample.
 *
 * This file imports the peers from bench/peers/node_modules: it is bundled by bench/lib/peers.ts, with
 * `@opentelemetry/api` resolved to the root's copy, and type-checked by bench/peers/tsconfig.json.
 */
import { OITracer, traceTool } from '@arizeai/openinference-core';
import { observe } from '@langfuse/tracing';
import { trace } from '@opentelemetry/api';
import * as traceloop from '@traceloop/node-server-sdk';
import type { BenchCase } from '../lib/measure.js';
import { asyncWeatherTool, TOOL_CONTEXT, WEATHER_TOOL, type WeatherInput } from '../lib/tools.js';

type Run = (input: WeatherInput) => Promise<number>;

/** The tool's body as a plain function of its input, as these libraries wrap it: the same call as `bare`. */
function run(): Run {
  const tool = asyncWeatherTool();
  return (input) => tool.call(input, TOOL_CONTEXT);
}

const { name } = WEATHER_TOOL;

/**
 * OpenInference `traceTool`: a TOOL span with `input.value` / `output.value` (the arguments and the
 * result as JSON). Content off is its TraceConfig `hideInputs` / `hideOutputs` on an `OITracer`
 * (what `OPENINFERENCE_HIDE_INPUTS` / `_OUTPUTS` set); the default resolves the global tracer per call.
 */
function openInference(contentOff: boolean): Run {
  if (!contentOff) return traceTool(run(), { name });
  const tracer = new OITracer({
    tracer: trace.getTracer('openinference-core'),
    traceConfig: { hideInputs: true, hideOutputs: true },
  });
  return traceTool(run(), { name, tracer });
}

/**
 * Traceloop `withTool`: a `<name>.tool` span with `traceloop.entity.input` / `.output`. `initialize`
 * sets its configuration only (tracingEnabled false: it does not start its own NodeSDK, so the spans go
 * to this process's SDK; no prompt sync). Content off is the per-call `traceContent: false`.
 */
let traceloopReady = false;
function traceloopTool(contentOff: boolean): Run {
  if (!traceloopReady) {
    traceloop.initialize({
      appName: 'otel-tool-calls-bench',
      tracingEnabled: false,
      traceloopSyncEnabled: false,
      silenceInitializationMessage: true,
    });
    traceloopReady = true;
  }
  const inner = run();
  const config = contentOff ? { name, traceContent: false } : { name };
  return (input) => traceloop.withTool(config, inner, input);
}

/**
 * Langfuse `observe` as a tool observation (`asType: 'tool'`), on the global tracer provider (no
 * LangfuseSpanProcessor). Content off is `captureInput: false, captureOutput: false`.
 */
function langfuse(contentOff: boolean): Run {
  const options = contentOff
    ? { name, asType: 'tool' as const, captureInput: false, captureOutput: false }
    : { name, asType: 'tool' as const };
  return observe(run(), options);
}

export const PEERS = [
  { kind: 'openinference', label: 'OpenInference traceTool', make: openInference },
  { kind: 'traceloop', label: 'Traceloop withTool', make: traceloopTool },
  { kind: 'langfuse', label: "Langfuse observe({ asType: 'tool' })", make: langfuse },
] as const;

/** Each peer, default and content off, async tool, one call in flight, in the `peers` process. */
export function peerCases(): BenchCase[] {
  return PEERS.flatMap((peer) =>
    [false, true].map((contentOff): BenchCase => {
      const traced = peer.make(contentOff);
      const setting = contentOff ? 'content off' : 'default';
      return {
        id: `peers/async/${peer.kind}-${contentOff ? 'content-off' : 'default'}/x1`,
        process: 'peers',
        group: 'peers',
        world: 'sdk',
        tool: 'async',
        kind: `${peer.kind}-${contentOff ? 'content-off' : 'default'}`,
        label: `${peer.label}, ${setting}`,
        inFlight: 1,
        callable: { call: (input: WeatherInput) => traced(input) },
      };
    }),
  );
}
