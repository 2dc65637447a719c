import {
  createYoga,
  type GraphiQLOptions,
  type LogLevel,
  useExecutionCancellation,
  type YogaLogger,
  type YogaServerInstance,
} from "graphql-yoga";
import { createCursorKey } from "../connections/cursor.ts";
import { createFleetReadCache } from "../fleet/read-cache.ts";
import { createFleetWriteVersion } from "../fleet/write-version.ts";
import { schema } from "../schema/index.ts";
import type { UpstreamClient } from "../upstream/client.ts";
import { withKeyConcurrency } from "../upstream/key-concurrency.ts";
import { createKeyHasher, hashesPerConnection, type KeyHasher } from "../upstream/key-memory.ts";
import { createMemoryReadCache } from "../upstream/read-cache.ts";
import { withSharing } from "../upstream/sharing.ts";
import { boundedParserCaches } from "./admission/text-caches.ts";
import { useApiKeyGate } from "./admission/use-api-key-gate.ts";
import { useCostLimit } from "./admission/use-cost-limit.ts";
import { useInputRules } from "./admission/use-input-rules.ts";
import { keyProblem, useKeyBound } from "./admission/use-key-bound.ts";
import { useOperationLimits } from "./admission/use-operation-limits.ts";
import {
  createMemoryQueryStore,
  type PersistedDocumentsOptions,
  usePersistedDocuments,
} from "./admission/use-persisted-documents.ts";
import { useVariableErrors } from "./admission/use-variable-errors.ts";
import { useWellFormedInput } from "./admission/use-well-formed-input.ts";
import { type GatewayBounds, resolveBounds } from "./bounds.ts";
import { GATEWAY_DEFAULTS } from "./defaults.ts";
import { createDocumentFacts, type DocumentFactsCache } from "./document-facts.ts";
import {
  authorizationFrom,
  authorizationParam,
  type BatchUsageContext,
  createContext,
  eventContextFor,
  type GatewayContext,
  useBatchUsage,
} from "./execution/context.ts";
import { createPreparedLane, type Handover } from "./execution/prepared-lane.ts";
import { useCompiledExecution } from "./execution/use-compiled-execution.ts";
import { useIncrementalDelivery } from "./execution/use-incremental-delivery.ts";
import { useOperationDeadline } from "./execution/use-operation-deadline.ts";
import { useUpstreamReport } from "./execution/use-upstream-report.ts";
import { createFleetState, type FleetOptions } from "./fleet-state.ts";
import { corsFor } from "./http/cors.ts";
import { createFastPath, type FastPath } from "./http/fast-path.ts";
import {
  FAST_PATH_MAX_KEPT_TEXT,
  FAST_PATH_TEXT_BYTES,
  FAST_PATH_TEXTS,
} from "./http/fast-path-eligibility.ts";
import { renderGraphiQLPage, useGraphiQLAssets } from "./http/graphiql-page.ts";
import { type RequestIdContext, requestIdOf, useRequestId } from "./http/request-id.ts";
import { useBatchRefusal } from "./http/use-batch-refusal.ts";
import { useCsrfPrevention } from "./http/use-csrf-prevention.ts";
import { useHttpStatusInErrors } from "./http/use-http-status-in-errors.ts";
import { useLandingPage } from "./http/use-landing-page.ts";
import { useNoBodyEcho } from "./http/use-no-body-echo.ts";
import { READINESS_CACHE_MS, useReadiness } from "./http/use-readiness.ts";
import { useRequestSizeLimit } from "./http/use-request-size-limit.ts";
import { type SseStreams, useSseSingleConnection } from "./http/use-sse-single-connection.ts";
import { LiveHub } from "./live/live-hub.ts";
import { registerLiveMetrics } from "./live/live-metrics.ts";
import type { LiveTimers } from "./live/live-throttle.ts";
import { useLiveQueries } from "./live/use-live-queries.ts";
import { maskError, maskSessionError } from "./mask-error.ts";
import { createGatewayLogger, nameRequestScope } from "./observability/logger.ts";
import { GatewayMetrics } from "./observability/metrics.ts";
import { useOperationSpans } from "./observability/tracing.ts";
import {
  type MetricsAccess,
  startOperationMeter,
  useMetrics,
} from "./observability/use-metrics.ts";
import { declaredPipeline } from "./pipeline.ts";
import {
  createSessionAuthorizer,
  type SessionModeOptions,
  useNoIntrospection,
  useReadOnlySessions,
} from "./session/session-mode.ts";
import { SessionRefused } from "./session/session-refused.ts";
import { useAnswerRedaction } from "./session/use-answer-redaction.ts";
import { ConversationStatusHub } from "./subscriptions/conversation-status-hub.ts";
import { SubscriptionCounts, useSubscriptionBounds } from "./subscriptions/subscription-bounds.ts";

/**
 * yoga's server context as the gateway types it: whatever the adapter puts there, the request's
 * ID, and the usage its operations share. One per request, handed to every hook.
 */
export type GatewayServerContext = Record<string, unknown> &
  RequestIdContext &
  BatchUsageContext &
  Pick<Handover, "preparedContext">;

export interface GatewayOptions {
  upstream: UpstreamClient;
  /** Most upstream calls one operation may be estimated to make; default 200. */
  maxUpstreamCalls?: number;
  /** Deepest selection allowed; default 12. */
  maxDepth?: number;
  /** The bounds against hostile clients (docs/limits.md); defaults in defaults.ts. */
  bounds?: GatewayBounds;
  /** Who may read `/metrics`: a token, or a port of its own (METRICS_TOKEN, METRICS_PORT). */
  metricsAccess?: MetricsAccess;
  /** Most aliases in one operation; default 30. */
  maxAliases?: number;
  /** Most tokens in one GraphQL document; default 5000. */
  maxTokens?: number;
  /** Largest request body; default 1 MiB. */
  maxRequestBytes?: number;
  /** Browser origins allowed by CORS; default any ("*", never with credentials). */
  corsOrigins?: string[];
  /** Poll interval of `Subscription.conversationStatus`; default 1000 ms. */
  pollIntervalMs?: number;
  /** GraphiQL's opening state (e.g. the demo key's header); false (the default) turns it off. */
  graphiql?: GraphiQLOptions | false;
  /** Secret of the connection cursors' HMAC; random per gateway when absent (CURSOR_SECRET). */
  cursorSecret?: string;
  /** Trusted documents and automatic persisted queries (TRUSTED_DOCUMENTS_*). */
  persistedDocuments?: PersistedDocumentsOptions;
  /** Session mode (AUTH_MODE=session): tokens instead of keys; absent: passthrough. */
  session?: SessionModeOptions;
  /**
   * Starts every single-connection SSE token of this instance (SSE_TOKEN_PREFIX), so a fleet's
   * balancer can send each stream's requests to the instance that holds it (docs/fleet.md).
   */
  sseTokenPrefix?: string;
  /** Whether introspection is answered; default true. */
  introspection?: boolean;
  /** Longest a query or mutation may run, retries included; default 10 000 ms. */
  operationDeadlineMs?: number;
  /** Most operations in one batched request; 0 (the default) refuses batches (MAX_BATCH_SIZE). */
  maxBatchSize?: number;
  /**
   * The run of a repeated query's document at which it is compiled (graphql-jit) and runs
   * compiled from then on; 0: never. Default 2 (COMPILED_EXECUTION_AFTER; docs/operations.md).
   */
  compileAfter?: number;
  /** Milliseconds of compiling allowed per second, on average; default 100. */
  compileMsPerSecond?: number;
  /** A level, false for silence, or a logger of one's own (tests capture lines so); default "info". */
  logging?: LogLevel | YogaLogger | false;
  /** REDIS_URL: state shared by every instance of the fleet (docs/fleet.md); absent: in process. */
  fleet?: FleetOptions;
  /**
   * Sharing between operations (docs/upstream-sharing.md): identical GETs in flight coalesced
   * (UPSTREAM_COALESCE, default on), and the read cache's TTL (UPSTREAM_CACHE_TTL_S, default 0: off).
   */
  sharing?: { coalesce?: boolean; cacheTtlS?: number };
  /** The clock of the in-process read cache's TTLs (default: the process's); tests move their own. */
  now?: () => number;
  /**
   * `@live` queries (docs/live-queries.md): MAX_LIVE_QUERY_READS, LIVE_RATE_LIMIT_SHARE, and the
   * clock `@live(throttle:)` reads (tests move their own; default the process's).
   */
  live?: { maxReads?: number; rateLimitShare?: number; timers?: LiveTimers };
}

export type Gateway = YogaServerInstance<GatewayServerContext, GatewayContext> & {
  /** The names of the rules in the order they apply (pipeline.ts). */
  pipeline: readonly string[];
  conversationStatusHub: ConversationStatusHub;
  /** The pollers of `@live` queries. */
  liveHub: LiveHub;
  /** The node:http fast path of the common case, through the same plugins (fast-path.ts). */
  fastPath: FastPath;
  /**
   * Why graphql-ws connection params are refused (no key, a key that fails the local checks, a
   * session token that does not verify), or undefined when the socket may be acknowledged.
   */
  connectionRefusal(connectionParams: unknown): Promise<string | undefined>;
  /** graphql-sse's single-connection streams: listen() bounds them with the graphql-ws sockets. */
  sseStreams: SseStreams;
  /** Stops taking part in the fleet (its subscriptions to Redis); the connection is main's. */
  closeFleet(): void;
  metrics: GatewayMetrics;
  /** How this gateway names a key in every per-key state (createKeyHasher); its own, never the process's. */
  keyHash: KeyHasher;
  /** This gateway's facts of each document it has run (document-facts.ts). */
  documentFacts: DocumentFactsCache;
};

/** The yoga app, not listening: main.ts listens on it, tests call `fetch` or listen on port 0. */
export function createGateway(options: GatewayOptions): Gateway {
  // Every name a fleet keeps in Redis for a key is keyed by the fleet's shared secret.
  if (options.fleet) {
    if (options.cursorSecret === undefined) {
      throw new Error("a fleet needs cursorSecret (CURSOR_SECRET): key hashes are keyed by it");
    }
  }
  // Per gateway, never per process: two gateways of one process share no state (with a fleet,
  // every instance's hasher is keyed alike by CURSOR_SECRET).
  const keyHash = createKeyHasher(options.fleet ? options.cursorSecret : undefined);
  // A connection's operations usually carry one key: its hash is worked out once per connection.
  const keyHashOn = hashesPerConnection(keyHash);
  const documents = createDocumentFacts();
  const bounds = resolveBounds(options.bounds);
  const cacheTtlS = options.sharing?.cacheTtlS ?? GATEWAY_DEFAULTS.upstreamCacheTtlS;
  // Fairness between keys over the one connection pool (docs/limits.md), and one call for
  // identical reads of one key (docs/upstream-sharing.md).
  const upstream = withSharing(withKeyConcurrency(options.upstream, bounds, keyHash), {
    keyHash,
    coalesce: options.sharing?.coalesce ?? GATEWAY_DEFAULTS.upstreamCoalesce,
    ...(options.fleet ? { fleet: createFleetWriteVersion(options.fleet.redis) } : {}),
    ...(cacheTtlS > 0
      ? {
          cache: {
            ttlS: cacheTtlS,
            store: options.fleet
              ? createFleetReadCache(options.fleet.redis, cacheTtlS)
              : createMemoryReadCache({
                  maxBytes: GATEWAY_DEFAULTS.readCacheMaxBytes,
                  maxEntries: GATEWAY_DEFAULTS.readCacheMaxEntries,
                  ...(options.now ? { now: options.now } : {}),
                }),
          },
        }
      : {}),
  });
  const pollIntervalMs = options.pollIntervalMs ?? GATEWAY_DEFAULTS.pollIntervalMs;
  // Each default applied once, here: the plugins take figures, not options with defaults.
  const maxRequestBytes = options.maxRequestBytes ?? GATEWAY_DEFAULTS.maxRequestBytes;
  const maxTokens = options.maxTokens ?? GATEWAY_DEFAULTS.maxTokens;
  const operationDeadlineMs = options.operationDeadlineMs ?? GATEWAY_DEFAULTS.operationDeadlineMs;
  let yoga: YogaServerInstance<GatewayServerContext, GatewayContext> | undefined;
  const log = (level: "info" | "warn", message: string) => yoga?.logger[level](message);
  const metrics = new GatewayMetrics({
    total: () => conversationStatusHub.pollerCount,
    owned: () => conversationStatusHub.ownedPollerCount,
  });
  // The APQ store's bounds: the fleet's fallback and the in-process store alike.
  const apq = {
    capacity: options.persistedDocuments?.apqCapacity ?? GATEWAY_DEFAULTS.apqCapacity,
    maxBytes: options.persistedDocuments?.apqMaxBytes ?? bounds.apqMaxBytes,
    maxDocumentBytes: bounds.maxCachedDocumentBytes,
  };
  // The longest query text a registration keeps.
  const registeredBytes =
    options.persistedDocuments?.maxCachedDocumentBytes ?? bounds.maxCachedDocumentBytes;
  const fleet = options.fleet
    ? createFleetState(options.fleet, {
        pollIntervalMs,
        apq,
        registry: metrics.registry,
        log,
      })
    : undefined;
  const conversationStatusHub = new ConversationStatusHub({
    upstream,
    keyHash,
    intervalMs: pollIntervalMs,
    onCallDone: metrics.recordUpstreamCall,
    onPollerStart: ({ requestId, instanceId }) =>
      log("info", `poller started: request ID ${requestId}, instance ${instanceId}`),
    ...(fleet ? { fleet: fleet.pollers } : {}),
  });
  const liveHub = new LiveHub({
    upstream,
    keyHash,
    intervalMs: pollIntervalMs,
    rateLimitShare: options.live?.rateLimitShare ?? GATEWAY_DEFAULTS.liveRateLimitShare,
    onCallDone: metrics.recordUpstreamCall,
    ...(fleet ? { fleet: fleet.pollers } : {}),
  });
  registerLiveMetrics(metrics.registry, liveHub);
  const dependencies = {
    upstream,
    keyHash,
    onWrite: (authorization: string) => liveHub.invalidate(authorization),
    conversationStatusHub,
    cursorKey: createCursorKey(options.cursorSecret),
    maxUpstreamCalls: options.maxUpstreamCalls ?? GATEWAY_DEFAULTS.maxUpstreamCalls,
    maxUpstreamBytes: bounds.maxUpstreamBytes,
    onCallDone: metrics.recordUpstreamCall,
    onCallShared: metrics.recordSharedCall,
  };
  const perSessionPerMinute =
    options.session?.perSessionPerMinute ?? GATEWAY_DEFAULTS.sessionRateLimitPerMinute;
  const authorize = options.session
    ? createSessionAuthorizer({
        ...(fleet ? { limiter: fleet.sessionLimiter(perSessionPerMinute) } : {}),
        ...options.session,
        perSessionPerMinute,
      })
    : undefined;
  // Session tokens and trusted documents are rarer set-ups: they keep yoga's path alone.
  const fastPathOn = !options.session && !options.persistedDocuments?.trustedOnly;
  const compiledExecution = useCompiledExecution({
    after: options.compileAfter ?? GATEWAY_DEFAULTS.compileAfter,
    compileMsPerSecond: options.compileMsPerSecond ?? GATEWAY_DEFAULTS.compileMsPerSecond,
    documents,
    onRun: (how) => metrics.compiledRuns.inc({ how }),
  });
  const preparedLane = createPreparedLane({
    enabled: fastPathOn,
    schema,
    documents,
    compiled: compiledExecution,
    deadlineMs: operationDeadlineMs,
    texts: {
      max: FAST_PATH_TEXTS,
      maxBytes: FAST_PATH_TEXT_BYTES,
      maxTextBytes: FAST_PATH_MAX_KEPT_TEXT,
    },
    requestIdOf: (request) => {
      const requestId = requestIdOf(request as unknown as Request);
      nameRequestScope(requestId);
      return requestId;
    },
    meter: () => {
      const meter = startOperationMeter(metrics, "query");
      return { done: () => meter.done(undefined) };
    },
    onAnswered: () => {
      metrics.compiledRuns.inc({ how: "compiled" });
      metrics.preparedAnswers.inc();
    },
    // As the context factory below makes it for a request without a session, the operation
    // following the client's going away without a request signal in between.
    contextFor: (request, requestId, connection) => {
      const context = createContext(
        dependencies,
        authorizationFrom(request.headers.get("authorization")),
        undefined,
        requestId,
        request as unknown as Request,
        undefined,
        keyHashOn(connection),
      );
      request.followDisconnect(context.operation);
      return context;
    },
  });
  const fastPath = createFastPath({
    maxRequestBytes,
    maxTokens,
    enabled: fastPathOn,
    lane: preparedLane,
  });

  const session = options.session;
  // Who reserves a single-connection stream, as the local checks see it: a key's hash, or a
  // verified session's organization and subject (its key is the organization's, shared).
  const holderOf = async (request: Request): Promise<string | undefined> => {
    const header = authorizationFrom(request.headers.get("authorization"));
    if (header === undefined || keyProblem(header) !== undefined) return undefined;
    if (!session) return `key\n${keyHash(header)}`;
    return session.verify(header).then(
      (verified) => `session\n${verified.organization}\n${verified.subject}`,
      () => undefined,
    );
  };
  const sse = useSseSingleConnection({
    holderOf,
    // A verified session's key is the gateway's own; a passthrough key counts once accepted.
    vouchedFor: (request) => {
      const header = authorizationFrom(request.headers.get("authorization"));
      if (session) return true;
      return header !== undefined && (options.upstream.knowsKey?.(keyHash(header)) ?? false);
    },
    ...(options.sseTokenPrefix === undefined ? {} : { tokenPrefix: options.sseTokenPrefix }),
    limits: {
      reservationTtlMs: bounds.sseReservationTtlMs,
      reservationsPerKey: bounds.sseReservationsPerKey,
      reservationsTotal: bounds.sseReservationsTotal,
      maxQueuedBytes: bounds.sseMaxQueuedBytes,
    },
  });

  const freshContext = eventContextFor(dependencies, operationDeadlineMs);
  const subscriptionCounts = new SubscriptionCounts(bounds);
  // The rules in the order they apply, each with what it must follow and why (pipeline.ts):
  // an order that breaks a stated guarantee stops the gateway at start-up.
  const answeredFirst =
    "a request another plugin answers by itself is no operation: it gets no request ID";
  const pipeline = declaredPipeline([
    { name: "fast-path", plugin: fastPath.plugin },
    { name: "batch-refusal", plugin: useBatchRefusal(options.maxBatchSize ?? 0) },
    { name: "landing-page", plugin: useLandingPage("/graphql", Boolean(options.graphiql)) },
    { name: "metrics", plugin: useMetrics(metrics, documents, options.metricsAccess) },
    { name: "csrf-prevention", plugin: useCsrfPrevention() },
    { name: "graphiql-assets", plugin: options.graphiql ? useGraphiQLAssets() : undefined },
    { name: "no-body-echo", plugin: useNoBodyEcho() },
    {
      name: "request-size-limit",
      plugin: useRequestSizeLimit({ maxBytes: maxRequestBytes }),
    },
    {
      name: "request-id",
      plugin: useRequestId(),
      after: {
        "batch-refusal": answeredFirst,
        "landing-page": answeredFirst,
        metrics: answeredFirst,
        "csrf-prevention": answeredFirst,
        "graphiql-assets": answeredFirst,
        "no-body-echo": answeredFirst,
        "request-size-limit": answeredFirst,
      },
    },
    { name: "batch-usage", plugin: useBatchUsage() },
    {
      // graphql-sse's own endpoint (/graphql/stream).
      name: "sse-single-connection",
      plugin: sse.plugin,
      after: {
        "request-size-limit": "a stream's operations are bounded in bytes like any request's",
        "request-id": "every answer on a stream names its request ID",
      },
    },
    { name: "compiled-execution", plugin: compiledExecution },
    {
      name: "prepared-lane",
      plugin: preparedLane.plugin,
      after: { "compiled-execution": "the lane runs only what compiled execution compiled" },
    },
    {
      name: "operation-spans",
      plugin: useOperationSpans(documents),
      after: {
        "compiled-execution":
          "a span wraps, in the operation's trace context, the execution that really runs",
      },
    },
    {
      name: "persisted-documents",
      plugin: usePersistedDocuments({
        keyHash,
        // Registrations are kept only for a key the upstream has accepted (docs/limits.md).
        acceptsKey: (authorization) => options.upstream.knowsKey?.(keyHash(authorization)) ?? false,
        ...options.persistedDocuments,
        maxCachedDocumentBytes: registeredBytes,
        store:
          options.persistedDocuments?.store ??
          fleet?.apqStore ??
          createMemoryQueryStore({ ...apq, maxDocumentBytes: registeredBytes }),
      }),
    },
    { name: "incremental-delivery", plugin: useIncrementalDelivery(documents) },
    {
      name: "readiness",
      plugin: useReadiness(
        "/readyz",
        async () => {
          const reachable = await options.upstream.isReachable();
          return { ready: reachable, upstream: reachable ? "reachable" : "unreachable" };
        },
        READINESS_CACHE_MS,
        // Losing Redis degrades the fleet to per-instance state: it never makes an instance unready.
        () => (fleet ? fleet.redisState() : { redis: "not configured" }),
      ),
    },
    { name: "execution-cancellation", plugin: useExecutionCancellation() },
    {
      name: "operation-limits",
      plugin: useOperationLimits({
        maxDepth: options.maxDepth ?? GATEWAY_DEFAULTS.maxDepth,
        maxAliases: options.maxAliases ?? GATEWAY_DEFAULTS.maxAliases,
        maxTokens,
      }),
    },
    {
      name: "well-formed-input",
      plugin: useWellFormedInput({ maxValueDepth: GATEWAY_DEFAULTS.maxValueDepth }),
    },
    {
      name: "operation-deadline",
      plugin: useOperationDeadline({ deadlineMs: operationDeadlineMs }),
    },
    { name: "key-bound", plugin: useKeyBound() },
    {
      name: "read-only-sessions",
      plugin: options.session ? useReadOnlySessions(documents) : undefined,
    },
    { name: "answer-redaction", plugin: options.session ? useAnswerRedaction() : undefined },
    {
      name: "no-introspection",
      plugin: options.introspection === false ? useNoIntrospection() : undefined,
    },
    { name: "variable-errors", plugin: useVariableErrors(documents) },
    {
      name: "input-rules",
      plugin: useInputRules(documents),
      after: { "variable-errors": "an argument's variable is judged as coerced to its type" },
    },
    {
      name: "cost-limit",
      plugin: useCostLimit({ maxUpstreamCalls: dependencies.maxUpstreamCalls, documents }),
    },
    { name: "api-key-gate", plugin: useApiKeyGate() },
    { name: "upstream-report", plugin: useUpstreamReport(documents) },
    {
      name: "subscription-bounds",
      plugin: useSubscriptionBounds(freshContext, subscriptionCounts, { documents, keyHash }),
    },
    {
      name: "live-queries",
      plugin: useLiveQueries({
        hub: liveHub,
        documents,
        keyHash,
        counts: subscriptionCounts,
        freshContext,
        maxReads: options.live?.maxReads ?? GATEWAY_DEFAULTS.maxLiveQueryReads,
        ...(options.live?.timers ? { timers: options.live.timers } : {}),
      }),
      after: {
        "answer-redaction": "a live result and its patch are made of what the client may see",
      },
    },
    { name: "http-status-in-errors", plugin: useHttpStatusInErrors() },
  ]);
  yoga = createYoga<GatewayServerContext, GatewayContext>({
    schema,
    graphqlEndpoint: "/graphql",
    healthCheckEndpoint: "/healthz",
    landingPage: false,
    graphiql:
      options.graphiql === undefined || options.graphiql === false
        ? false
        : { title: "voicegraph", ...options.graphiql },
    // GraphiQL's assets come from the package, not a CDN: it works on a closed network. They
    // are separate cacheable files, not 9 MB inlined into every page load.
    renderGraphiQL: renderGraphiQLPage,
    logging:
      typeof options.logging === "object"
        ? options.logging
        : createGatewayLogger(options.logging === false ? "silent" : (options.logging ?? "info")),
    // Session mode forwards no upstream text it cannot vouch for (docs/security.md).
    maskedErrors: { maskError: options.session ? maskSessionError : maskError },
    // Over graphql-ws there is no Fetch request: the key comes in the connection params.
    context: async ({
      request,
      connectionParams,
      requestId: serverRequestId,
      batchUsage,
      preparedContext,
      req,
    }) => {
      // An operation the prepared lane began and handed over: its reads are reused, not made again.
      if (preparedContext) return preparedContext;
      const header = authorizationFrom(
        request?.headers.get("authorization") ?? authorizationParam(connectionParams),
      );
      const requestId = serverRequestId ?? requestIdOf(request);
      // Session mode exchanges the frontend's token for its organization's key, or refuses.
      const authorized = authorize ? await authorize(header) : undefined;
      const context = createContext(
        dependencies,
        authorized ? authorized.authorization : header,
        request?.signal,
        requestId,
        request,
        batchUsage,
        keyHashOn((req as { socket?: object } | undefined)?.socket),
      );
      return authorized ? { ...context, session: authorized.session } : context;
    },
    cors: corsFor(options.corsOrigins ?? ["*"]),
    // The schema takes no files: multipart requests are not accepted.
    multipart: false,
    parserAndValidationCache: boundedParserCaches(bounds),
    batching: (options.maxBatchSize ?? 0) > 0 ? { limit: options.maxBatchSize } : false,
    plugins: pipeline.plugins,
  });
  const connectionRefusal = async (connectionParams: unknown) => {
    const header = authorizationFrom(authorizationParam(connectionParams));
    if (header === undefined) {
      return "A key is required: send `Authorization` in the connection params.";
    }
    const problem = keyProblem(header);
    if (problem !== undefined || !session) return problem;
    return session.verify(header).then(
      () => undefined,
      (error: unknown) =>
        error instanceof SessionRefused ? error.message : "The session token was refused.",
    );
  };
  return Object.assign(yoga, {
    pipeline: pipeline.names,
    conversationStatusHub,
    liveHub,
    fastPath,
    connectionRefusal,
    sseStreams: sse.streams,
    closeFleet: () => {
      liveHub.close();
      fleet?.close();
    },
    metrics,
    keyHash,
    documentFacts: documents,
  });
}
