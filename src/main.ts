import { flushCompileCache } from "node:module";
import { setFlagsFromString } from "node:v8";
import { ConfigError } from "./env.ts";
import { readTrustedDocuments } from "./gateway/admission/trusted-documents.ts";
import { createGateway, type Gateway } from "./gateway/create-gateway.ts";
import type { McpOptions } from "./gateway/mcp/endpoint.ts";
import { serveMetrics } from "./gateway/observability/metrics-server.ts";
import { startTracing } from "./gateway/observability/tracing.ts";
import { surviveUnhandledRejections } from "./gateway/observability/unhandled-rejections.ts";
import { exampleOperationFor } from "./gateway/pages/example-operation.ts";
import { type GatewayConfig, readGatewayConfig } from "./gateway/settings/config.ts";
import { listen } from "./gateway/transport/server.ts";
import { portProblem } from "./listen.ts";
import { schema as publicSchema } from "./schema/index.ts";
import { createUpstreamClient } from "./upstream/client.ts";
import { KeyMemory } from "./upstream/key-memory.ts";

/**
 * The embedded sandbox, when no upstream is named, with its demo keys and dialect. Its modules
 * are loaded only then: a gateway in front of a real upstream does not hold them.
 */
async function startEmbeddedSandbox() {
  const [{ readSandboxConfig }, { DIALECTS }, seedData, { startSandbox }] = await Promise.all([
    import("./sandbox/config.ts"),
    import("./sandbox/dialects.ts"),
    import("./sandbox/seed-data.ts"),
    import("./sandbox/server.ts"),
  ]);
  // It takes the standalone sandbox's SANDBOX_* settings, on a free port.
  const options = readSandboxConfig().options;
  return {
    sandbox: await startSandbox({ port: 0, ...options }),
    dialect: DIALECTS[options.dialect ?? "standard"],
    demoKeys: seedData.DEMO_KEYS,
    organizationKeys: seedData.DEMO_ORGANIZATION_KEYS,
  };
}

type EmbeddedSandbox = Awaited<ReturnType<typeof startEmbeddedSandbox>>;

/**
 * Session mode's settings; over the embedded sandbox without a keys file, its demo keys. Its
 * modules (jose) are loaded only in session mode.
 */
async function sessionModeOf(config: GatewayConfig, embedded: EmbeddedSandbox | undefined) {
  const [{ readSessionKeys }, { createSessionVerifier }] = await Promise.all([
    import("./gateway/session/session-keys.ts"),
    import("./gateway/session/verify-session.ts"),
  ]);
  const keys = config.SESSION_KEYS_FILE
    ? readSessionKeys(config.SESSION_KEYS_FILE)
    : embedded
      ? new Map(Object.entries(embedded.organizationKeys))
      : undefined;
  if (keys === undefined) throw new ConfigError("AUTH_MODE=session needs SESSION_KEYS_FILE");
  return {
    keys,
    perSessionPerMinute: config.SESSION_RATE_LIMIT,
    verify: createSessionVerifier({
      ...(config.SESSION_JWT_SECRET ? { secret: config.SESSION_JWT_SECRET } : {}),
      ...(config.SESSION_JWKS_URL ? { jwksUrl: config.SESSION_JWKS_URL } : {}),
      ...(config.SESSION_ISSUER ? { issuer: config.SESSION_ISSUER } : {}),
      ...(config.SESSION_AUDIENCE ? { audience: config.SESSION_AUDIENCE } : {}),
      clockSkewSeconds: config.SESSION_CLOCK_SKEW_S,
    }),
  };
}

/**
 * The MCP endpoint (MCP=on; docs/mcp.md): tools from MCP_OPERATIONS_DIR, else from the trusted
 * documents. Its modules (the MCP SDK) are loaded only then.
 */
async function mcpEndpointOf(config: GatewayConfig, gateway: Gateway) {
  const { createMcpEndpoint } = await import("./gateway/mcp/endpoint.ts");
  const options: McpOptions = {
    schema: gateway.getEnveloped().schema,
    source: config.MCP_OPERATIONS_DIR
      ? { folder: config.MCP_OPERATIONS_DIR }
      : config.TRUSTED_DOCUMENTS_FILE
        ? { manifestFile: config.TRUSTED_DOCUMENTS_FILE }
        : { none: true },
    mutations: config.MCP_MUTATIONS === "on",
    schemaTools: config.MCP_SCHEMA_TOOLS === "on",
    trustedOnly: config.TRUSTED_DOCUMENTS_ONLY,
    ...(config.AUTH_MODE === "session"
      ? { session: { issuer: config.SESSION_ISSUER, audience: config.SESSION_AUDIENCE } }
      : {}),
    corsOrigins: config.CORS_ORIGINS,
    maxRequestBytes: config.MAX_REQUEST_BYTES,
    logger: gateway.logger,
    version: process.env.npm_package_version ?? "0.0.0",
  };
  try {
    return createMcpEndpoint(gateway, options);
  } catch (error) {
    const variable = config.MCP_OPERATIONS_DIR ? "MCP_OPERATIONS_DIR" : "TRUSTED_DOCUMENTS_FILE";
    const why = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`${variable} cannot be read for MCP's tools (${why})`);
  }
}

/** Reads the environment, starts the embedded sandbox when no upstream is named, and listens. */
async function main(): Promise<void> {
  // Idle collections keep the compiled code, so a quiet spell is not followed by slow requests
  // (docs/operations.md, "Process defaults"). Here, not on a command line: every start gets it.
  setFlagsFromString("--no-memory-reducer-favors-memory");
  const config = readGatewayConfig();
  // Before anything makes a call: the tracer provider must be registered to see it.
  const tracing = config.OTEL_EXPORTER_OTLP_ENDPOINT
    ? await startTracing({
        url: `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces`,
      })
    : undefined;
  const embedded = config.UPSTREAM_URL ? undefined : await startEmbeddedSandbox();
  const sandbox = embedded?.sandbox;
  // The embedded sandbox's dialect tells what its answers cannot; UPSTREAM_* settings win.
  const dialect = embedded?.dialect;
  // A fleet: one Redis connection for every piece of shared state (docs/fleet.md).
  const redis =
    config.REDIS_URL || config.REDIS_CLUSTER_NODES
      ? // Its client (ioredis) is loaded only for a fleet.
        await (await import("./fleet/redis-start.ts")).startFleetRedis({
          url: config.REDIS_URL,
          clusterNodes: config.REDIS_CLUSTER_NODES,
          prefix: config.REDIS_PREFIX,
        })
      : undefined;
  const keyMemory = new KeyMemory();
  const upstream = createUpstreamClient({
    keyMemory,
    baseUrl: config.UPSTREAM_URL ?? (sandbox?.url as string),
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    connections: config.UPSTREAM_CONNECTIONS,
    maxRetries: config.UPSTREAM_MAX_RETRIES,
    reading: {
      searchParam: config.UPSTREAM_SEARCH_PARAM ?? dialect?.searchParam,
      durationUnit: config.UPSTREAM_DURATION_UNIT ?? dialect?.durationUnit,
    },
  });
  const demoHeader = embedded && `Bearer ${embedded.demoKeys.acme}`;
  // GraphiQL serves anyone who loads the page: on by default only over the embedded sandbox.
  const sessionMode = config.AUTH_MODE === "session";
  const graphiqlOn = config.GRAPHIQL ?? (sandbox !== undefined && !sessionMode);
  const served =
    config.FEDERATION === "on"
      ? (await import("./schema/subgraph.ts")).subgraphSchema
      : publicSchema;
  const gateway = createGateway({
    upstream,
    ...(redis ? { fleet: { redis, keyMemory } } : {}),
    sharing: {
      coalesce: config.UPSTREAM_COALESCE,
      cacheTtlS: config.UPSTREAM_CACHE_TTL_S,
      fleetFlights: config.UPSTREAM_FLEET_FLIGHTS,
      fleetFlightWaitMs: config.UPSTREAM_FLEET_FLIGHT_WAIT_MS,
    },
    live: {
      maxReads: config.MAX_LIVE_QUERY_READS,
      rateLimitShare: config.LIVE_RATE_LIMIT_PERCENT / 100,
    },
    maxUpstreamCalls: config.MAX_UPSTREAM_CALLS,
    maxDepth: config.MAX_DEPTH,
    maxAliases: config.MAX_ALIASES,
    maxTokens: config.MAX_TOKENS,
    maxRequestBytes: config.MAX_REQUEST_BYTES,
    corsOrigins: config.CORS_ORIGINS,
    pollIntervalMs: config.POLL_INTERVAL_MS,
    processMetrics: true,
    metricsAccess: {
      ...(config.METRICS_TOKEN === undefined ? {} : { token: config.METRICS_TOKEN }),
      separatePort: config.METRICS_PORT !== undefined,
    },
    bounds: {
      maxUpstreamBytes: config.MAX_UPSTREAM_BYTES,
      upstreamConnectionsPerKey: config.UPSTREAM_CONNECTIONS_PER_KEY,
      upstreamQueuePerKey: config.UPSTREAM_QUEUE_PER_KEY,
      maxSubscriptionsPerKey: config.MAX_SUBSCRIPTIONS_PER_KEY,
      maxSubscriptionsPerConnection: config.MAX_SUBSCRIPTIONS_PER_CONNECTION,
      maxSubscriptionsTotal: config.MAX_SUBSCRIPTIONS_TOTAL,
      sseReservationTtlMs: config.SSE_RESERVATION_TTL_MS,
      sseReservationsPerKey: config.SSE_RESERVATIONS_PER_KEY,
      sseReservationsTotal: config.SSE_RESERVATIONS_TOTAL,
      sseMaxQueuedBytes: config.SSE_STREAM_MAX_QUEUED_BYTES,
      apqMaxBytes: config.APQ_MAX_BYTES,
      documentCacheMaxBytes: config.DOCUMENT_CACHE_MAX_BYTES,
      maxCachedDocumentBytes: config.MAX_CACHED_DOCUMENT_BYTES,
    },
    logging: config.LOG_LEVEL,
    ...(config.CURSOR_SECRET ? { cursorSecret: config.CURSOR_SECRET } : {}),
    persistedDocuments: {
      trustedOnly: config.TRUSTED_DOCUMENTS_ONLY,
      ...(config.TRUSTED_DOCUMENTS_FILE
        ? { manifest: readTrustedDocuments(config.TRUSTED_DOCUMENTS_FILE) }
        : {}),
    },
    maxBatchSize: config.MAX_BATCH_SIZE,
    compileAfter: config.COMPILED_EXECUTION_AFTER,
    introspection: config.INTROSPECTION,
    // Federation's modules load only when asked for: they weigh about 8 MB resident.
    schema: served,
    ...(sessionMode ? { session: await sessionModeOf(config, embedded) } : {}),
    ...(config.SSE_TOKEN_PREFIX === undefined ? {} : { sseTokenPrefix: config.SSE_TOKEN_PREFIX }),
    operationDeadlineMs: config.OPERATION_DEADLINE_MS,
    graphiql: !graphiqlOn
      ? false
      : sandbox
        ? {
            ...(sessionMode ? {} : { headers: JSON.stringify({ Authorization: demoHeader }) }),
            defaultQuery: exampleOperationFor(served),
          }
        : { defaultQuery: exampleOperationFor(served) },
  });
  // A rejection nothing handled is a defect: logged and counted, it ends no one's connection.
  surviveUnhandledRejections(gateway);
  const mcp = config.MCP === "on" ? await mcpEndpointOf(config, gateway) : undefined;
  const server = await listen(gateway, config.PORT, config.HOST, {
    ...(mcp ? { mcp } : {}),
    headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS,
    maxConnections: config.MAX_CONNECTIONS,
    maxMessageBytes: config.MAX_REQUEST_BYTES,
    ...(config.MAX_WEBSOCKETS === undefined ? {} : { maxWebSockets: config.MAX_WEBSOCKETS }),
    webSocketInitTimeoutMs: config.WS_INIT_TIMEOUT_MS,
    webSocketIdleTimeoutMs: config.WS_IDLE_TIMEOUT_MS,
    fastPath: config.GATEWAY_FAST_PATH === "on",
    ...(config.SESSION_COOKIE === undefined
      ? {}
      : { sessionCookie: { name: config.SESSION_COOKIE, origins: config.CORS_ORIGINS } }),
  });

  const lines = [
    graphiqlOn
      ? `voicegraph: GraphiQL at ${server.url}/graphql`
      : `voicegraph: GraphQL at ${server.url}/graphql (GraphiQL off; GRAPHIQL=true turns it on)`,
  ];
  if (mcp) lines.push(`  MCP (AI agents): ${server.url}/mcp (docs/mcp.md)`);
  if (sandbox && sessionMode) {
    lines.push(`  upstream: embedded sandbox at ${sandbox.url} (set UPSTREAM_URL to use another)`);
    // Session mode: the browser never sees a key, so neither does this banner.
    lines.push("  session mode: a demo token from `npm run demo-token -- acme` (or globex)");
  } else if (embedded) {
    const { demoKeys } = embedded;
    lines.push(
      `  upstream: embedded sandbox at ${embedded.sandbox.url} (set UPSTREAM_URL to use another)`,
    );
    lines.push(`  demo key: Authorization: ${demoHeader}`);
    lines.push(
      `  other keys: ${demoKeys.globex} (second organization), ${demoKeys.acmeReadonly} (read-only)`,
    );
  } else {
    lines.push(`  upstream: ${config.UPSTREAM_URL}`);
  }
  if (redis) {
    const store = redis.form === "cluster" ? "a Redis Cluster" : "Redis";
    lines.push(`  fleet: state shared through ${store} under "${config.REDIS_PREFIX}"`);
  }
  const metricsServer =
    config.METRICS_PORT === undefined
      ? undefined
      : await serveMetrics(gateway.metrics, config.METRICS_PORT, config.HOST);
  if (metricsServer) lines.push(`  metrics: ${metricsServer.url}/metrics`);
  console.log(lines.join("\n"));
  // With NODE_COMPILE_CACHE (npm start sets it), the modules' compiled code is written now, not
  // at exit, which a killed process never reaches: the next start skips type stripping and
  // compiling, and its stripper's memory (docs/benchmarks.md).
  flushCompileCache();
  // Said once at start-up, which start-up does not wait for: the upstream may come up later.
  // A drain does not wait for it either.
  const startupCheck = new AbortController();
  void upstream.isReachable(startupCheck.signal).then((reachable) => {
    if (!reachable && !startupCheck.signal.aborted) {
      console.warn(
        `voicegraph: the upstream ${config.UPSTREAM_URL ?? sandbox?.url} is not reachable now; operations answer UPSTREAM_UNAVAILABLE until it is, and /readyz says so`,
      );
    }
  });

  // A drain, not a cut: in-flight writes finish and their clients see the answer
  // (docs/operations.md). A second signal while draining is ignored; the grace period bounds the wait.
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`voicegraph: ${signal}: draining for at most ${config.SHUTDOWN_GRACE_MS} ms`);
    startupCheck.abort();
    await server.drain(config.SHUTDOWN_GRACE_MS);
    await metricsServer?.close();
    await upstream.close();
    await redis?.close();
    await sandbox?.close();
    await tracing?.shutdown();
    console.log("voicegraph: drained, exiting");
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  const busyPort = portProblem(error, "voicegraph", "PORT");
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else if (busyPort !== undefined) {
    console.error(busyPort);
  } else {
    console.error("voicegraph could not start:", error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
