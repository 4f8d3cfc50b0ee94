/*
 * The MCP SDK objects the adapter accepts, by shape rather than by import: an `McpServer`, a
 * low-level `Server` or a `Client` of `@modelcontextprotocol/sdk` 1.x or of the 2.x split packages
 * (`@modelcontextprotocol/server`, `@modelcontextprotocol/client`) satisfies them, and a project
 * that installs only one SDK line type-checks without the other.
 */

/** An `McpServer` of either SDK line (`registerTool` is what both have). */
export interface McpServerLike {
  registerTool(name: string, ...rest: never[]): unknown;
}

/**
 * A low-level `Server` of either SDK line (what an McpServer keeps as its `server`, what fastmcp
 * builds per session): `setRequestHandler` and `getClientCapabilities` are what both lines have and a
 * `Client` has not.
 */
export interface LowLevelServerLike {
  setRequestHandler(...args: never[]): unknown;
  getClientCapabilities(): unknown;
}

/** A `Client` of either SDK line. */
export interface McpClientLike {
  callTool(params: { name: string }, ...rest: never[]): Promise<unknown>;
}
