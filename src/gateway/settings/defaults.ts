/**
 * Every gateway default, declared once: the environment (config.ts), `createGateway` and the
 * plugins read them here (docs/configuration.md shows the same figures).
 */
export const GATEWAY_DEFAULTS = {
  maxUpstreamCalls: 200,
  maxUpstreamBytes: 32 * 1024 * 1024,
  // A quarter of the default pool (UPSTREAM_CONNECTIONS 32) per key, and a bounded queue;
  // another quarter is kept for keys with nothing in flight (key-concurrency.ts).
  upstreamConnectionsPerKey: 8,
  upstreamQueuePerKey: 64,
  maxDepth: 12,
  maxAliases: 30,
  maxTokens: 5000,
  // Deepest nesting of objects and lists in a variable or an inline value (well-formed input).
  maxValueDepth: 32,
  maxRequestBytes: 1024 * 1024,
  // Most operations in one batched request; 0: batches refused (MAX_BATCH_SIZE).
  maxBatchSize: 0,
  // MCP sessions (docs/mcp.md): open at most, and how long an idle one is kept.
  mcpMaxSessions: 1000,
  mcpSessionIdleMs: 10 * 60 * 1000,
  pollIntervalMs: 1000,
  // Consecutive transient failures of a conversationStatus poller before its stream ends.
  pollMaxTransientFailures: 5,
  // Live subscriptions (docs/limits.md).
  maxSubscriptionsPerKey: 100,
  maxSubscriptionsPerConnection: 25,
  maxSubscriptionsTotal: 2000,
  // Live queries (docs/live-queries.md): distinct GETs one may keep polled, and the part of a
  // key's advertised remaining rate limit its pollers may spend before their intervals stretch.
  maxLiveQueryReads: 20,
  liveRateLimitShare: 0.5,
  // Caches fed by request text (docs/limits.md): bytes of text kept per cache, and per document.
  apqMaxBytes: 8 * 1024 * 1024,
  apqCapacity: 1000,
  // Sharing between operations (docs/upstream-sharing.md).
  upstreamCoalesce: true,
  upstreamCacheTtlS: 0,
  // One flight per read across a fleet, and the longest a waiter waits for another's answer.
  upstreamFleetFlights: true,
  upstreamFleetFlightWaitMs: 1_000,
  // The in-process read cache's bounds (upstream/read-cache.ts), whatever its TTL.
  readCacheMaxBytes: 32 * 1024 * 1024,
  readCacheMaxEntries: 10_000,
  documentCacheMaxBytes: 32 * 1024 * 1024,
  maxCachedDocumentBytes: 64 * 1024,
  operationDeadlineMs: 10_000,
  // A query's document is compiled (graphql-jit) at its second run (docs/operations.md).
  compileAfter: 2,
  // Compiling spends at most this many ms a second, on average (a tenth of a core).
  compileMsPerSecond: 100,
  // Sockets (listen options; docs/operations.md).
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5000,
  maxConnections: 1000,
  webSocketInitTimeoutMs: 3000,
  webSocketIdleTimeoutMs: 30_000,
  shutdownGraceMs: 10_000,
  // graphql-sse's single-connection streams (docs/limits.md): a reservation is opened at once by
  // graphql-sse's client, a browser tab holds one, and a stream's results are written as they come.
  sseReservationTtlMs: 5000,
  sseReservationsPerKey: 8,
  sseReservationsTotal: 500,
  sseMaxQueuedBytes: 1024 * 1024,
  // Session mode.
  sessionClockSkewS: 30,
  sessionRateLimitPerMinute: 600,
} as const;
