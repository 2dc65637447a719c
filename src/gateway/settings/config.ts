import { z } from "zod";
import { boolVar, ConfigError, intVar, parseEnv } from "../../env.ts";
import { FLEET_REDIS_DEFAULTS } from "../../fleet/redis-defaults.ts";
import { prefixKeepsTags } from "../../fleet/redis-keys.ts";
import { UPSTREAM_DEFAULTS } from "../../upstream/client.ts";
import { GATEWAY_DEFAULTS } from "./defaults.ts";

const httpUrl = z
  .string()
  // A host and port without a scheme (`127.0.0.1:4010`) is the usual slip: say so.
  .refine((value) => /^[a-z][a-z0-9+.-]*:\/\//i.test(value), {
    error: "must start with its scheme, http:// or https://, e.g. http://127.0.0.1:4010",
    abort: true,
  })
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    error: "must be an http(s) URL without /v1, e.g. https://api.example.com",
    abort: true,
  })
  // Every operation path already carries /v1: a base ending in it would ask for /v1/v1/...
  .refine((value) => !/\/v1\/?$/.test(new URL(value).pathname), {
    error: "must not end with /v1 (the gateway adds it), e.g. https://api.example.com",
  });

/** The gateway's environment (docs/configuration.md). */
export const gatewayEnv = z.object({
  PORT: intVar(0, 65535).default(4000).describe("Gateway listen port (`0`: any free port)."),
  HOST: z.string().min(1).default("127.0.0.1").describe("Gateway listen host."),
  UPSTREAM_URL: httpUrl
    .optional()
    .describe("Base URL of the REST API, without `/v1`; unset: the embedded sandbox."),
  UPSTREAM_TIMEOUT_MS: intVar(100, 120_000)
    .default(UPSTREAM_DEFAULTS.timeoutMs)
    .describe("Budget of one upstream call, retries and backoff included."),
  UPSTREAM_CONNECTIONS: intVar(1, 1024)
    .default(UPSTREAM_DEFAULTS.connections)
    .describe("Keep-alive connections to the upstream."),
  UPSTREAM_CONNECTIONS_PER_KEY: intVar(1, 1024)
    .default(GATEWAY_DEFAULTS.upstreamConnectionsPerKey)
    .describe("Upstream calls of one key in flight at once; the rest wait (docs/limits.md)."),
  UPSTREAM_QUEUE_PER_KEY: intVar(0, 100_000)
    .default(GATEWAY_DEFAULTS.upstreamQueuePerKey)
    .describe(
      "Calls of one key waiting for a place; past it, refused at once with `RATE_LIMITED`.",
    ),
  UPSTREAM_MAX_RETRIES: intVar(0, 5)
    .default(UPSTREAM_DEFAULTS.maxRetries)
    .describe("Retries of an idempotent GET on connection errors and 502/503/504."),
  // Where the seed is silent and answers cannot tell (docs/upstream.md: "Silent spots of the seed").
  UPSTREAM_SEARCH_PARAM: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, { error: "must be a query parameter name, e.g. q" })
    .optional()
    .describe(
      "Name of operation 7's free-text parameter (the seed does not show it); default `search`, or the embedded sandbox dialect's.",
    ),
  UPSTREAM_DURATION_UNIT: z
    .enum(["seconds", "milliseconds"], { error: "must be one of seconds, milliseconds" })
    .optional()
    .describe(
      "`seconds` or `milliseconds`: unit of the upstream's `duration`; default `seconds`, or the embedded sandbox dialect's.",
    ),
  // Sharing between operations (docs/upstream-sharing.md).
  UPSTREAM_COALESCE: boolVar()
    .default(GATEWAY_DEFAULTS.upstreamCoalesce)
    .describe(
      "Identical upstream GETs of one key in flight at once share one call (docs/upstream-sharing.md).",
    ),
  UPSTREAM_CACHE_TTL_S: intVar(0, 86_400)
    .default(GATEWAY_DEFAULTS.upstreamCacheTtlS)
    .describe(
      "Seconds a single-resource read is kept per key (`0`: no read cache; docs/upstream-sharing.md).",
    ),
  UPSTREAM_FLEET_FLIGHTS: boolVar()
    .default(GATEWAY_DEFAULTS.upstreamFleetFlights)
    .describe(
      "With REDIS_URL or REDIS_CLUSTER_NODES: one upstream call per identical read across the fleet (docs/fleet.md).",
    ),
  UPSTREAM_FLEET_FLIGHT_WAIT_MS: intVar(50, 60_000)
    .default(GATEWAY_DEFAULTS.upstreamFleetFlightWaitMs)
    .describe(
      "Longest a read waits for another instance's flight before calling itself (docs/fleet.md).",
    ),
  MAX_UPSTREAM_CALLS: intVar(1, 100_000)
    .default(GATEWAY_DEFAULTS.maxUpstreamCalls)
    .describe(
      "Most upstream calls one operation may be estimated to make, and may really make, retries included.",
    ),
  MAX_UPSTREAM_BYTES: intVar(1024, 1024 * 1024 * 1024)
    .default(GATEWAY_DEFAULTS.maxUpstreamBytes)
    .describe("Most bytes of upstream answers one operation may read."),
  MAX_DEPTH: intVar(1, 100)
    .default(GATEWAY_DEFAULTS.maxDepth)
    .describe("Deepest selection allowed."),
  MAX_ALIASES: intVar(0, 1000)
    .default(GATEWAY_DEFAULTS.maxAliases)
    .describe("Most aliases in one operation."),
  MAX_TOKENS: intVar(100, 1_000_000)
    .default(GATEWAY_DEFAULTS.maxTokens)
    .describe("Most tokens in one GraphQL document (checked while parsing)."),
  MAX_REQUEST_BYTES: intVar(1024, 100 * 1024 * 1024)
    .default(GATEWAY_DEFAULTS.maxRequestBytes)
    .describe("Largest request body, and largest graphql-ws message (413 past it)."),
  POLL_INTERVAL_MS: intVar(100, 60_000)
    .default(GATEWAY_DEFAULTS.pollIntervalMs)
    .describe(
      "How often the live pollers (`conversationStatus` and `@live`) re-read each upstream GET.",
    ),
  MAX_SUBSCRIPTIONS_PER_KEY: intVar(1, 1_000_000)
    .default(GATEWAY_DEFAULTS.maxSubscriptionsPerKey)
    .describe("Subscriptions one key may hold on this instance."),
  MAX_SUBSCRIPTIONS_PER_CONNECTION: intVar(1, 1_000_000)
    .default(GATEWAY_DEFAULTS.maxSubscriptionsPerConnection)
    .describe("Subscriptions one graphql-ws socket may hold."),
  APQ_MAX_BYTES: intVar(0, 1024 * 1024 * 1024)
    .default(GATEWAY_DEFAULTS.apqMaxBytes)
    .describe("Bytes of automatic-persisted-query text kept in process, all keys together."),
  DOCUMENT_CACHE_MAX_BYTES: intVar(0, 4 * 1024 * 1024 * 1024)
    .default(GATEWAY_DEFAULTS.documentCacheMaxBytes)
    .describe("Estimated bytes of parsed documents kept by the parse caches."),
  MAX_CACHED_DOCUMENT_BYTES: intVar(0, 16 * 1024 * 1024)
    .default(GATEWAY_DEFAULTS.maxCachedDocumentBytes)
    .describe("A document longer than this is never cached (parse caches, APQ)."),
  MAX_SUBSCRIPTIONS_TOTAL: intVar(1, 1_000_000)
    .default(GATEWAY_DEFAULTS.maxSubscriptionsTotal)
    .describe("Subscriptions this instance serves at once."),
  // Live queries (docs/live-queries.md).
  MAX_LIVE_QUERY_READS: intVar(1, 10_000)
    .default(GATEWAY_DEFAULTS.maxLiveQueryReads)
    .describe(
      "Most upstream reads one `@live` query may keep polled (its estimate, then its reads); past it, `COST_LIMIT_EXCEEDED`.",
    ),
  LIVE_RATE_LIMIT_PERCENT: intVar(1, 100)
    .default(GATEWAY_DEFAULTS.liveRateLimitShare * 100)
    .describe(
      "Percent of each advertised rate-limit window (`X-RateLimit-Limit`) the live pollers of one organization may spend together, fleet-wide; past it they wait for the reset.",
    ),
  // graphql-sse's single-connection streams (docs/limits.md).
  SSE_RESERVATION_TTL_MS: intVar(100, 600_000)
    .default(GATEWAY_DEFAULTS.sseReservationTtlMs)
    .describe(
      "A single-connection SSE stream reserved (`PUT`) and not opened in this time is forgotten.",
    ),
  SSE_RESERVATIONS_PER_KEY: intVar(1, 1_000_000)
    .default(GATEWAY_DEFAULTS.sseReservationsPerKey)
    .describe(
      "Single-connection SSE streams (reserved or open) one key or session may hold on this instance.",
    ),
  SSE_RESERVATIONS_TOTAL: intVar(1, 1_000_000)
    .default(GATEWAY_DEFAULTS.sseReservationsTotal)
    .describe("Single-connection SSE streams (reserved or open) this instance holds at once."),
  SSE_STREAM_MAX_QUEUED_BYTES: intVar(1024, 1024 * 1024 * 1024)
    .default(GATEWAY_DEFAULTS.sseMaxQueuedBytes)
    .describe(
      "Bytes of results waiting to be written to one single-connection SSE stream; past it the stream ends.",
    ),
  SSE_TOKEN_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,32}$/, {
      error: "must be 1 to 32 letters, digits or hyphens, e.g. gw-1",
    })
    .optional()
    .describe(
      "This instance's mark at the start of its single-connection SSE tokens (`<prefix>.<token>`), for a fleet's balancer to route by (docs/fleet.md).",
    ),
  CORS_ORIGINS: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    // Sandboxed frames and local files share the origin "null": allowing it allows them all.
    .refine((origins) => !origins.includes("null"), {
      error: 'must not list the "null" origin (any sandboxed frame or local file has it)',
    })
    .default(["*"])
    .describe(
      "Comma-separated browser origins allowed by CORS (`*`: any; never `null`); credentials only for a listed origin, with SESSION_COOKIE.",
    ),
  // Several instances behind one balancer must share it, or each refuses the others' cursors.
  CURSOR_SECRET: z
    .string()
    .min(32, { error: "must be at least 32 characters, e.g. from openssl rand -hex 32" })
    .optional()
    .describe(
      "HMAC key of connection cursors (at least 32 characters); random per process when unset; required with `REDIS_URL` or `REDIS_CLUSTER_NODES`.",
    ),
  // A fleet (docs/fleet.md): state shared through one Redis; unset, everything stays in process.
  REDIS_URL: z
    .string()
    .refine((value) => URL.canParse(value) && /^rediss?:$/.test(new URL(value).protocol), {
      error: "must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379",
    })
    .optional()
    .describe(
      "`redis://` or `rediss://`: state shared by a fleet of instances (docs/fleet.md); unset: all in process.",
    ),
  // A Redis Cluster, given as its users get it: seed nodes (docs/fleet.md).
  REDIS_CLUSTER_NODES: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((node) => node.trim())
        .filter(Boolean),
    )
    .refine((nodes) => nodes.length > 0 && nodes.every((node) => /^[^\s:/]+:\d{1,5}$/.test(node)), {
      error: "must be host:port seed nodes separated by commas, e.g. 10.0.0.1:6379,10.0.0.2:6379",
    })
    .optional()
    .describe(
      "`host:port,…`: seed nodes of a Redis Cluster holding a fleet's state, instead of `REDIS_URL` (docs/fleet.md).",
    ),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:{}-]{1,64}$/, {
      error:
        "must be 1 to 64 letters, digits or _ . : - { } (no glob characters), e.g. voicegraph:",
    })
    // One hash tag at most, whole: a lone brace would mix the kind of a key into its tag.
    .refine(prefixKeepsTags, {
      error: "may hold one hash tag, e.g. {vg}: (every key in its one cluster slot), or no brace",
    })
    .default(FLEET_REDIS_DEFAULTS.prefix)
    .describe(
      "Prefix of every Redis key and channel, so deployments can share one Redis; may hold one hash tag (`{vg}:`), which puts every key in one cluster slot.",
    ),
  // Trusted documents: the manifest codegen's client preset writes (persisted-documents.json).
  TRUSTED_DOCUMENTS_FILE: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Trusted-documents manifest (`persisted-documents.json` from codegen's client preset).",
    ),
  // Default: on in session mode, off in passthrough (docs/security.md: "Frontends: keep the key on the server").
  TRUSTED_DOCUMENTS_ONLY: boolVar()
    .optional()
    .describe(
      "Only the manifest's operations run (needs `TRUSTED_DOCUMENTS_FILE`); default `false`, `true` in session mode.",
    ),
  MAX_BATCH_SIZE: intVar(0, 100)
    .default(GATEWAY_DEFAULTS.maxBatchSize)
    .describe("Most operations in one batched request (JSON array body); `0`: batches refused."),
  // Compiled execution of repeated queries (src/gateway/preparation/use-compiled-execution.ts).
  COMPILED_EXECUTION_AFTER: intVar(0, 1000)
    // At 1, a document too large for the parser cache (a new object each time) would be compiled
    // at every request.
    .refine((after) => after !== 1, { error: "must be 0 (never) or from 2 to 1000" })
    .default(GATEWAY_DEFAULTS.compileAfter)
    .describe(
      "The run of a query's document at which it is compiled (graphql-jit); `0`: never (docs/operations.md).",
    ),
  // The node:http fast path of a JSON POST of one query or mutation (src/gateway/lane/fast-path.ts).
  GATEWAY_FAST_PATH: z
    .enum(["on", "off"], { error: "must be on or off" })
    .default("on")
    .describe("`on`/`off`: the node:http fast path of the common request (docs/operations.md)."),
  // A subgraph of a company's supergraph (docs/federation.md); off, the public schema is unchanged.
  FEDERATION: z
    .enum(["on", "off"], { error: "must be on or off" })
    .default("off")
    .describe(
      "`on`/`off`: also serve as an Apollo Federation 2 subgraph (`@key`, `_entities`, `_service`; docs/federation.md).",
    ),
  // The Model Context Protocol at /mcp, for AI agents (docs/mcp.md).
  MCP: z
    .enum(["on", "off"], { error: "must be on or off" })
    .default("off")
    .describe("`on`/`off`: serve MCP (Streamable HTTP) at `/mcp` on the same port (docs/mcp.md)."),
  MCP_OPERATIONS_DIR: z
    .string()
    .min(1)
    .optional()
    .describe(
      "A folder of `.graphql` files whose named operations become MCP tools (else the trusted documents' operations).",
    ),
  MCP_MUTATIONS: z
    .enum(["on", "off"], { error: "must be on or off" })
    .default("off")
    .describe("`on`/`off`: named mutations become MCP tools too (docs/mcp.md)."),
  MCP_SCHEMA_TOOLS: z
    .enum(["on", "off"], { error: "must be on or off" })
    .default("off")
    .describe("`on`/`off`: the MCP tools `introspect`, `search`, `validate` and `execute`."),
  // Session mode (docs/security.md: "Frontends: keep the key on the server").
  AUTH_MODE: z
    .enum(["passthrough", "session"], { error: "must be passthrough or session" })
    .default("passthrough")
    .describe("`passthrough` (the caller's key) or `session` (tokens; docs/security.md)."),
  SESSION_KEYS_FILE: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Session mode: `{ "<organization>": "<API key>" }` (over the embedded sandbox: its demo keys).',
    ),
  SESSION_JWT_SECRET: z
    .string()
    .min(32, { error: "must be at least 32 characters" })
    .optional()
    .describe("Session mode: the HS256 secret of the sign-in's tokens (at least 32 characters)."),
  SESSION_JWKS_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    .optional()
    .describe("Session mode: the sign-in's JSON Web Key Set, for asymmetric tokens."),
  SESSION_ISSUER: z
    .string()
    .min(1)
    .optional()
    .describe("Session mode: the `iss` a token must carry, when set."),
  SESSION_AUDIENCE: z
    .string()
    .min(1)
    .optional()
    .describe("Session mode: the `aud` a token must carry, when set."),
  SESSION_CLOCK_SKEW_S: intVar(0, 300)
    .default(GATEWAY_DEFAULTS.sessionClockSkewS)
    .describe("Session mode: clock skew tolerated on `exp`/`nbf`."),
  SESSION_COOKIE: z
    .string()
    .regex(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/, { error: "must be a cookie name" })
    .optional()
    .describe(
      "Session mode: the `HttpOnly` cookie that holds the session token, read on every transport when no `Authorization` is sent, with CSRF checks (docs/security.md).",
    ),
  SESSION_RATE_LIMIT: intVar(1, 1_000_000)
    .default(GATEWAY_DEFAULTS.sessionRateLimitPerMinute)
    .describe(
      "Session mode: operations one session (`org` + `sub`) may run per minute, across the fleet.",
    ),
  // Default: on in passthrough, off in session mode.
  INTROSPECTION: boolVar()
    .optional()
    .describe("Whether the schema may be introspected; default `true`, `false` in session mode."),
  OPERATION_DEADLINE_MS: intVar(100, 600_000)
    .default(GATEWAY_DEFAULTS.operationDeadlineMs)
    .describe("Longest a query or mutation may run, retries included (not subscriptions)."),
  // Operations (docs/operations.md).
  SHUTDOWN_GRACE_MS: intVar(0, 600_000)
    .default(GATEWAY_DEFAULTS.shutdownGraceMs)
    .describe("How long a SIGTERM/SIGINT drain lets in-flight requests finish."),
  HEADERS_TIMEOUT_MS: intVar(100, 600_000)
    .default(GATEWAY_DEFAULTS.headersTimeoutMs)
    .describe("Longest wait for a request's headers (408 and close past it)."),
  REQUEST_TIMEOUT_MS: intVar(100, 3_600_000)
    .default(GATEWAY_DEFAULTS.requestTimeoutMs)
    .describe("Longest wait for a whole request, body included (408 past it)."),
  KEEP_ALIVE_TIMEOUT_MS: intVar(100, 600_000)
    .default(GATEWAY_DEFAULTS.keepAliveTimeoutMs)
    .describe("How long an idle keep-alive socket stays open."),
  MAX_CONNECTIONS: intVar(1, 1_000_000)
    .default(GATEWAY_DEFAULTS.maxConnections)
    .describe("Most open sockets (HTTP and WebSocket); more are closed on arrival."),
  // Default: three quarters of MAX_CONNECTIONS; always one place fewer than it (docs/limits.md).
  MAX_WEBSOCKETS: intVar(0, 1_000_000)
    .optional()
    .describe(
      "Most graphql-ws sockets; default three quarters of `MAX_CONNECTIONS`, so HTTP clients and `/healthz` keep a share.",
    ),
  WS_INIT_TIMEOUT_MS: intVar(100, 600_000)
    .default(GATEWAY_DEFAULTS.webSocketInitTimeoutMs)
    .describe("A graphql-ws socket that sends no `connection_init` in this time is closed (4408)."),
  WS_IDLE_TIMEOUT_MS: intVar(100, 3_600_000)
    .default(GATEWAY_DEFAULTS.webSocketIdleTimeoutMs)
    .describe("A graphql-ws socket that holds no subscription for this long is closed (4000)."),
  // /metrics on a port of its own, or behind a token (docs/limits.md).
  METRICS_PORT: intVar(0, 65535)
    .optional()
    .describe("Serve `/metrics` on this port instead of the gateway's (on `HOST`)."),
  METRICS_TOKEN: z
    .string()
    .min(16, { error: "must be at least 16 characters" })
    .optional()
    .describe("`/metrics` answers only `Authorization: Bearer <token>` (at least 16 characters)."),
  GRAPHIQL: z
    .enum(["true", "false"], { error: "must be true or false" })
    .transform((value) => value === "true")
    .optional()
    .describe(
      "`true`/`false`: GraphiQL at `/graphql` in a browser; default on over the embedded sandbox only.",
    ),
  LOG_LEVEL: z
    .enum(["debug", "info", "warn", "error"], { error: "must be one of debug, info, warn, error" })
    .default("info")
    .describe("`debug`, `info`, `warn` or `error`."),
  // OpenTelemetry: spans are exported over OTLP/HTTP to `<endpoint>/v1/traces` when set.
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
      error: "must be an http(s) URL of an OTLP/HTTP collector, e.g. http://127.0.0.1:4318",
    })
    .optional()
    .describe("OTLP/HTTP collector, e.g. `http://127.0.0.1:4318`: turns tracing on."),
});

export type GatewayConfig = Omit<
  z.infer<typeof gatewayEnv>,
  "TRUSTED_DOCUMENTS_ONLY" | "INTROSPECTION"
> & { TRUSTED_DOCUMENTS_ONLY: boolean; INTROSPECTION: boolean };

export function readGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const config = parseEnv(gatewayEnv, env);
  const session = config.AUTH_MODE === "session";
  const trustedOnly = config.TRUSTED_DOCUMENTS_ONLY ?? session;
  // A router sends the operations of its own query plans, never a client's documents.
  if (config.FEDERATION === "on" && trustedOnly) {
    throw new ConfigError(
      `FEDERATION=on cannot run trusted documents only (${config.TRUSTED_DOCUMENTS_ONLY ? "TRUSTED_DOCUMENTS_ONLY=true" : "the default of AUTH_MODE=session"}): a router sends its own query plans' operations; set TRUSTED_DOCUMENTS_ONLY=false and enforce trusted documents at the router (docs/federation.md)`,
    );
  }
  if (trustedOnly && config.TRUSTED_DOCUMENTS_FILE === undefined) {
    throw new ConfigError(
      `${session && config.TRUSTED_DOCUMENTS_ONLY === undefined ? "AUTH_MODE=session" : "TRUSTED_DOCUMENTS_ONLY=true"} needs TRUSTED_DOCUMENTS_FILE (the persisted-documents manifest; TRUSTED_DOCUMENTS_ONLY=false turns that off)`,
    );
  }
  if (config.SESSION_COOKIE !== undefined && !session) {
    throw new ConfigError(
      "SESSION_COOKIE needs AUTH_MODE=session: only a session token rides in it",
    );
  }
  if (config.REDIS_URL !== undefined && config.REDIS_CLUSTER_NODES !== undefined) {
    throw new ConfigError(
      "set REDIS_URL (one server) or REDIS_CLUSTER_NODES (a Redis Cluster's seed nodes), not both",
    );
  }
  const fleetStore =
    config.REDIS_URL !== undefined
      ? "REDIS_URL"
      : config.REDIS_CLUSTER_NODES && "REDIS_CLUSTER_NODES";
  if (fleetStore && config.CURSOR_SECRET === undefined) {
    throw new ConfigError(
      `${fleetStore} needs CURSOR_SECRET: every instance of a fleet must share it, or each refuses the others' cursors`,
    );
  }
  if (session && !config.SESSION_JWT_SECRET && !config.SESSION_JWKS_URL) {
    throw new ConfigError("AUTH_MODE=session needs SESSION_JWT_SECRET or SESSION_JWKS_URL");
  }
  return {
    ...config,
    TRUSTED_DOCUMENTS_ONLY: trustedOnly,
    INTROSPECTION: config.INTROSPECTION ?? !session,
  };
}
