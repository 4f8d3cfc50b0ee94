/*
 * The MCP SDK objects the adapter accepts, by shape rather than by import: an `McpServer` or a
 * `Client` of `@modelcontextprotocol/sdk` 1.x or of the 2.x split packages
 * (`@modelcontextprotocol/server`, `@modelcontextprotocol/client`) satisfies them, and a project
 * that installs only one SDK line type-checks without the other.
 */

/** An `McpServer` of either SDK line (`registerTool` is what both have). */
export interface McpServerLike {
  registerTool(name: string, ...rest: never[]): unknown;
}

/** A `Client` of either SDK line. */
export interface McpClientLike {
  callTool(params: { name: string }, ...rest: never[]): Promise<unknown>;
}
