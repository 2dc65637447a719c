/**
 * The only differences allowed between a settings-matrix run and the reference run
 * (docs/settings-matrix.md shows this same table; test/matrix/settings-matrix-doc.test.ts
 * compares them). A run's item may differ from the reference only as a row here says.
 */
export interface AllowedDifference {
  /** "setting=value", as the matrix names it. */
  setting: string;
  /** The corpus item, or "*" for every item. */
  item: string;
  differs: string;
  why: string;
}

export const ALLOWED_DIFFERENCES: readonly AllowedDifference[] = [
  {
    setting: "auth=session-header",
    item: "logout",
    differs: "logout runs, and the token is refused UNAUTHENTICATED afterwards",
    why: "passthrough has no session to end",
  },
  {
    setting: "auth=session-cookie",
    item: "logout",
    differs: "logout runs, and the cookie is refused UNAUTHENTICATED afterwards",
    why: "passthrough has no session to end",
  },
  {
    setting: "documents=trusted",
    item: "APQ",
    differs:
      "a query outside the manifest is refused `PERSISTED_QUERY_ONLY`, as text and to register, and its hash is never found",
    why: "only the manifest's documents run, so a stolen token cannot run or register a query of its own",
  },
  {
    setting: "federation=on",
    item: "live query",
    differs: "`@live` is refused `GRAPHQL_VALIDATION_FAILED` (Unknown directive)",
    why: "a router serves a supergraph's operations itself and never sends `@live` on to a subgraph (docs/federation.md)",
  },
  {
    setting: "federation=on",
    item: "MCP tools/list",
    differs: "`MatrixLive` is no tool",
    why: "without `@live` in the subgraph's schema its document does not validate",
  },
  {
    setting: "mcp=off",
    item: "MCP tools/list",
    differs: "`/mcp` is refused 404 `NOT_FOUND`",
    why: "MCP is off by default: nothing is served at `/mcp`",
  },
  {
    setting: "mcp=off",
    item: "MCP tools/call",
    differs: "`/mcp` is refused 404 `NOT_FOUND`",
    why: "MCP is off by default: nothing is served at `/mcp`",
  },
  {
    setting: "mcpMutations=on",
    item: "MCP tools/list",
    differs: "the manifest's named mutations are tools too",
    why: "with `MCP_MUTATIONS` off, an agent can only read",
  },
  {
    setting: "mcpSchemaTools=on",
    item: "MCP tools/list",
    differs: "`introspect`, `search`, `validate` and `execute` are tools too",
    why: "`MCP_SCHEMA_TOOLS` adds them",
  },
];
