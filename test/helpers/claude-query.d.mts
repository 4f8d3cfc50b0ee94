import type { CanUseTool, Options, Query, query, SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import type { ReceivedRequest, Reply } from './fake-messages-api.mjs';

/** A tool call the scripted model makes. */
export interface ScriptedCall {
  readonly name: string;
  readonly input: unknown;
}

/** What the fake API answers, made from the working directory the query runs in. */
export type Script = (home: string) => (request: ReceivedRequest, index: number) => Reply;

/** The model's turns, each a list of tool calls (ids `toolu_1`, `toolu_2`... in order), then `done`. */
export function toolTurns(turns: ReadonlyArray<ReadonlyArray<ScriptedCall>>): (request: ReceivedRequest) => Reply;

/** The model calls each tool once, one per turn, then says `done`. */
export function callsInTurn(calls: ReadonlyArray<ScriptedCall>): (request: ReceivedRequest) => Reply;

/**
 * A `canUseTool` that allows each of `count` calls once all of them are asked: their PreToolUse
 * hooks came first, so that all of them are open at once (concurrent sessions, without timing).
 */
export function allowWhenAllAsked(count: number): CanUseTool;

export interface StartedQuery {
  readonly query: Query;
  readonly home: string;
  readonly requests: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * Starts the Claude Agent SDK's real `query()` (its bundled CLI, a native binary) against a fake
 * Messages API on 127.0.0.1, pointed at it by `ANTHROPIC_BASE_URL`, in a fresh home and working
 * directory (which holds `notes.txt`; `script` gets its path), with `run` (the SDK's `query`, or a
 * patched one). Iterating the query is the caller's; `close()` stops the API.
 */
export function startQuery(script: Script, options: Options, run?: typeof query): Promise<StartedQuery>;

/** `startQuery`, iterated to its end: every message, the API's requests, the home directory. */
export function runQuery(
  script: Script,
  options: Options,
  run?: typeof query,
): Promise<{ messages: SDKMessage[]; requests: ReceivedRequest[]; home: string }>;
