import {
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
  isWrapped,
} from '@opentelemetry/instrumentation';
import type { CommonJsSubpath } from '../../instrumentation/commonjs-subpaths.js';
import { guarded, type PatchContext } from '../../instrumentation/patch-context.js';
import { switchableListener } from '../../instrumentation/switchable-listener.js';
import { isObserved } from '../../internal/observed-marker.js';
import { standInCache } from '../../internal/stand-in-cache.js';
import { declaredRange, noticeUnsupported } from '../../internal/version-range.js';
import { operationTelemetryOf } from '../../otel/operation-telemetry.js';
import { type Send, sendNotification, sendRequest } from './client-messages.js';
import { clientSessionFacts } from './client-seam.js';
import { instrumentClient, watchServerRequests } from './instrument-client.js';
import { instrumentServer } from './instrument-server.js';
import { listToolsNoting } from './listed-tools.js';
import { MCP_SDK_VERSIONS, MCP_SPLIT_VERSIONS } from './manifest.js';
import { RESPONSE_ENTRY } from './protocol-seam.js';
import { onresponseNotingPeerAnswers } from './sdk-own-errors.js';
import { lowLevelOf, ownConnect } from './server-seam.js';
import { noteClosing, startSession } from './session-duration.js';

const NAME = '@modelcontextprotocol/sdk';
const SERVER_NAME = '@modelcontextprotocol/server';
const CLIENT_NAME = '@modelcontextprotocol/client';
type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;
type Prototype = Record<string, unknown>;
/** A module that exports a server class: 1.x `server/mcp.js` (McpServer), `server/index.js` (Server), 2.x both. */
type ServerModule = { McpServer?: { prototype: Prototype }; Server?: { prototype: Prototype } };

/*
 * Where the hooks sit.
 * - Server: `McpServer.prototype.connect`, and the low-level `Server.prototype.connect` (a server
 *   written on `setRequestHandler`, fastmcp's per-session servers). A server handles no call before
 *   it is connected. One the app instrumented itself is left alone, and so is an McpServer's own
 *   low-level Server (McpServer's connect is its Server's: the McpServer is instrumented first, which
 *   marks both). The server is instrumented with `instrumentServer`, through a listener that does
 *   nothing once the instrumentation is disabled (the instance keeps its hooks).
 * - Client: `Client.prototype.callTool`. Each client gets a stand-in (an object whose prototype is
 *   the client) instrumented with `instrumentClient`, whose `callTool` runs the original on the
 *   real client: the client itself is never changed, so `disable()` restores it exactly and an app
 *   can still call `instrumentClient` on it later (then it is observed by that one only). Its other
 *   messages (`initialize`, `tools/list`, notifications, ...) are observed at `Client.prototype.request`
 *   and `.notification` as `instrumentClient` observes them (client-messages.ts), its session at
 *   `.connect`, and the names its server lists at `.listTools` (listed-tools.ts), through the server's
 *   switch: recorded while the instrumentation is enabled.
 * - 2.x: the same hooks on the classes the split packages export from their main module
 *   (`@modelcontextprotocol/server`'s `McpServer` and `Server`, `@modelcontextprotocol/client`'s `Client`).
 * - The copies other SDKs bundle (the Claude Agent SDK's `createSdkMcpServer().instance`) are no
 *   module of their own: claude-agent-sdk.ts instruments those by shape, where they are handed over.
 */
export function mcpModules(context: PatchContext): {
  readonly definitions: InstrumentationNodeModuleDefinition[];
  readonly commonJsSubpaths: CommonJsSubpath[];
} {
  const { wrap, unwrap, isEnabled, logger } = context;
  // read at each call: a call after disable() or setConfig() sees the current state
  // the server keeps its hooks after disable(): a listener that then does nothing, read at each call
  const serverListener = switchableListener(isEnabled, context.listener);
  // a client is observed only through the patched prototype: its stand-ins use the listener itself
  const standIns = standInCache<object, { callTool: AnyFunction }>();

  /**
   * `connect` of a server class (McpServer, or the low-level Server): instruments the instance before
   * its first connect, unless it is observed already (by the app, or as an McpServer's own Server);
   * then runs the instance's own `connect`, which watches the transport, or this original.
   */
  const connectObserved = (original: AnyFunction, what: string) =>
    function connect(this: object, ...args: unknown[]) {
      if (isEnabled() && !isObserved(this) && !isObserved(lowLevelOf(this))) {
        guarded(logger, what, () => instrumentServer(this as never, serverListener), undefined);
        // instrumented (marked): its own connect watches the transport, then comes back here to the original
        const own = isObserved(this) ? ownConnect(this) : undefined;
        if (own !== undefined) return own.apply(this, args);
      }
      return original.apply(this, args);
    };

  const patchServer = (moduleExports: ServerModule) => {
    patchConnect(moduleExports.McpServer?.prototype, 'McpServer');
    patchConnect(moduleExports.Server?.prototype, 'MCP Server');
    return moduleExports;
  };
  const patchConnect = (prototype: Prototype | undefined, what: string) => {
    if (!prototype || typeof prototype.connect !== 'function' || isWrapped(prototype.connect)) return;
    wrap(prototype, 'connect', (original) => connectObserved(original as AnyFunction, what));
  };
  const unpatchServer = (moduleExports: ServerModule) => {
    for (const prototype of [moduleExports.McpServer?.prototype, moduleExports.Server?.prototype]) {
      if (prototype && isWrapped(prototype.connect)) unwrap(prototype, 'connect');
    }
  };

  // the operations that are not tool calls: recorded through the switch, as the server's
  const telemetry = operationTelemetryOf(serverListener);
  const clientOperations = (client: object) =>
    telemetry === undefined ? undefined : { telemetry, facts: () => clientSessionFacts(client) };

  const patchClient = (moduleExports: { Client?: { prototype: Prototype } }) => {
    const prototype = moduleExports.Client?.prototype;
    if (!prototype || typeof prototype.callTool !== 'function') return moduleExports;
    patchClientMessages(prototype);
    // the names the client's server lists: a failed call to another is the model's (listed-tools.ts)
    if (typeof prototype.listTools === 'function') {
      wrap(prototype, 'listTools', (original) => {
        const noting = listToolsNoting(original as AnyFunction);
        return function listTools(this: object, ...args: unknown[]) {
          return (isEnabled() ? noting : (original as AnyFunction)).apply(this, args);
        };
      });
    }
    wrap(
      prototype,
      'callTool',
      (original) =>
        function callTool(this: object, ...args: unknown[]) {
          const run = original as AnyFunction;
          if (!isEnabled() || isObserved(this)) return run.apply(this, args);
          const standIn = guarded(logger, 'MCP Client', () => standInFor(this, run), undefined);
          return standIn ? standIn.callTool(...args) : run.apply(this, args);
        },
    );
    return moduleExports;
  };
  const unpatchClient = (moduleExports: { Client?: { prototype: Prototype } }) => {
    const prototype = moduleExports.Client?.prototype;
    if (!prototype) return;
    for (const method of [
      'callTool',
      'listTools',
      'request',
      'notification',
      'connect',
      'close',
      RESPONSE_ENTRY,
    ] as const) {
      if (isWrapped(prototype[method])) unwrap(prototype, method);
    }
  };

  // every message a client sends carries its context, in its own CLIENT span; connect() starts a session
  const patchClientMessages = (prototype: Prototype) => {
    const patchSend = (method: 'request' | 'notification', send: typeof sendRequest) => {
      if (typeof prototype[method] !== 'function') return;
      wrap(
        prototype,
        method,
        (original) =>
          function sendObserved(this: object, message: unknown, ...rest: unknown[]) {
            const run = original as Send;
            if (!isEnabled() || isObserved(this)) return run.call(this, message, ...rest);
            return send(this, run, message, rest, clientOperations(this));
          },
      );
    };
    patchSend('request', sendRequest);
    patchSend('notification', sendNotification);
    // a peer's error answer told from the SDK's own failure of the same code (sdk-own-errors.ts)
    if (typeof prototype[RESPONSE_ENTRY] === 'function') {
      wrap(prototype, RESPONSE_ENTRY, (original) => onresponseNotingPeerAnswers(original as AnyFunction));
    }
    if (typeof prototype.connect !== 'function' || telemetry === undefined) return;
    wrap(
      prototype,
      'connect',
      (original) =>
        function connect(this: object, transport: unknown, ...rest: unknown[]) {
          if (isEnabled() && !isObserved(this)) {
            const facts = () => clientSessionFacts(this);
            startSession(telemetry, 'client', transport, facts, this);
            guarded(logger, 'MCP Client', () => watchServerRequests({ lowLevel: this, telemetry, facts }), undefined);
          }
          return (original as AnyFunction).call(this, transport, ...rest);
        },
    );
    if (typeof prototype.close !== 'function') return;
    // the client ending its session itself: an ordinary end (session-duration.ts)
    wrap(
      prototype,
      'close',
      (original) =>
        function close(this: object, ...args: unknown[]) {
          noteClosing(this);
          return (original as AnyFunction).apply(this, args);
        },
    );
  };

  const standInFor = (client: object, run: AnyFunction) => {
    const listener = context.listener();
    return standIns(listener, client, () => {
      const created = Object.create(client) as { callTool: AnyFunction };
      Object.defineProperty(created, 'callTool', {
        configurable: true,
        writable: true,
        value: (...args: unknown[]) => run.apply(client, args),
      });
      instrumentClient(created as never, listener);
      return created;
    });
  };

  const range = [declaredRange(MCP_SDK_VERSIONS)];
  const splitRange = [declaredRange(MCP_SPLIT_VERSIONS)];
  const notice = noticeUnsupported(logger, NAME, MCP_SDK_VERSIONS);
  const files = (format: 'cjs' | 'esm') => [
    new InstrumentationNodeModuleFile(`${NAME}/dist/${format}/server/mcp.js`, range, patchServer, unpatchServer),
    new InstrumentationNodeModuleFile(`${NAME}/dist/${format}/server/index.js`, range, patchServer, unpatchServer),
    new InstrumentationNodeModuleFile(`${NAME}/dist/${format}/client/index.js`, range, patchClient, unpatchClient),
  ];
  const noticeFiles = (format: 'cjs' | 'esm') =>
    ['server/mcp.js', 'server/index.js', 'client/index.js'].map(
      (file) => new InstrumentationNodeModuleFile(`${NAME}/dist/${format}/${file}`, ['*'], notice, () => {}),
    );
  return {
    // ESM (import-in-the-middle finds the files); CommonJS too, should the SDK's "." export become loadable
    definitions: [
      new InstrumentationNodeModuleDefinition(NAME, range, undefined, undefined, [...files('cjs'), ...files('esm')]),
      new InstrumentationNodeModuleDefinition(NAME, ['*'], undefined, undefined, [
        ...noticeFiles('cjs'),
        ...noticeFiles('esm'),
      ]),
      // 2.x: each class in its package's main module (ESM and CommonJS alike)
      new InstrumentationNodeModuleDefinition(SERVER_NAME, splitRange, patchServer, unpatchServer),
      new InstrumentationNodeModuleDefinition(
        SERVER_NAME,
        ['*'],
        noticeUnsupported(logger, SERVER_NAME, MCP_SPLIT_VERSIONS),
      ),
      new InstrumentationNodeModuleDefinition(CLIENT_NAME, splitRange, patchClient, unpatchClient),
      new InstrumentationNodeModuleDefinition(
        CLIENT_NAME,
        ['*'],
        noticeUnsupported(logger, CLIENT_NAME, MCP_SPLIT_VERSIONS),
      ),
    ],
    // CommonJS today: by the specifiers an app requires (see CommonJsSubpath)
    commonJsSubpaths: [
      {
        specifiers: [`${NAME}/server/mcp.js`],
        supported: MCP_SDK_VERSIONS,
        patch: patchServer,
        unpatch: unpatchServer,
        unsupported: notice,
      },
      {
        specifiers: [`${NAME}/server/index.js`, `${NAME}/server`],
        supported: MCP_SDK_VERSIONS,
        patch: patchServer,
        unpatch: unpatchServer,
        unsupported: notice,
      },
      {
        specifiers: [`${NAME}/client/index.js`, `${NAME}/client`],
        supported: MCP_SDK_VERSIONS,
        patch: patchClient,
        unpatch: unpatchClient,
        unsupported: notice,
      },
    ],
  };
}
