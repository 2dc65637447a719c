import type { GraphiQLOptions, LogLevel, YogaLogger } from "graphql-yoga";
import type { schema } from "../../schema/index.ts";
import type { UpstreamClient } from "../../upstream/client.ts";
import type { RequestIdContext } from "../arrival/request-id.ts";
import type { MetricsAccess } from "../arrival/use-metrics.ts";
import type { FleetOptions } from "../assembly/fleet-state.ts";
import type { PipelineEntry } from "../assembly/pipeline.ts";
import type { BatchUsageContext } from "../execution/context.ts";
import type { Handover } from "../lane/prepared-lane.ts";
import type { LiveTimers } from "../live/live-throttle.ts";
import type { PersistedDocumentsOptions } from "../preparation/use-persisted-documents.ts";
import type { SessionModeOptions } from "../session/session-mode.ts";
import type { GatewayBounds } from "./bounds.ts";

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
  /**
   * prom-client's default process metrics (event-loop delay, heap, GC, handles, CPU) on
   * `/metrics` beside the gateway's: main.ts turns them on for its one gateway; off by default,
   * since each set watches the whole process (two gateways of one process would count it twice).
   */
  processMetrics?: boolean;
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
  sharing?: {
    coalesce?: boolean;
    cacheTtlS?: number;
    /** With a fleet: one flight per read across it (UPSTREAM_FLEET_FLIGHTS, default on). */
    fleetFlights?: boolean;
    /** The longest a read waits for another instance's flight (UPSTREAM_FLEET_FLIGHT_WAIT_MS). */
    fleetFlightWaitMs?: number;
  };
  /** The clock of the in-process read cache's TTLs (default: the process's); tests move their own. */
  now?: () => number;
  /**
   * `@live` queries (docs/live-queries.md): MAX_LIVE_QUERY_READS, LIVE_RATE_LIMIT_SHARE, and the
   * clock `@live(throttle:)` reads (tests move their own; default the process's).
   */
  live?: { maxReads?: number; rateLimitShare?: number; timers?: LiveTimers };
  /** The schema served: the public one, or with FEDERATION=on the subgraph's (docs/federation.md). */
  schema?: typeof schema;
  /**
   * Rules of an embedding application, judged after admission's own, before the operation runs.
   * Each declares how the prepared lane treats it (pipeline.ts): an undeclared one stops start-up.
   */
  rules?: readonly PipelineEntry[];
}
