import type { GraphQLSchema } from "graphql";
import type { YogaLogger } from "graphql-yoga";
import { schema } from "../../schema/index.ts";
import { createGatewayLogger } from "../observability/logger.ts";
import { resolveBounds } from "./bounds.ts";
import { GATEWAY_DEFAULTS } from "./defaults.ts";
import type { GatewayOptions } from "./gateway-options.ts";

/**
 * Every setting a gateway is built with, each default applied once, here: no field is optional,
 * so a stage or a plugin takes a value, never an option it would default again.
 */
export interface ResolvedSettings {
  /** The schema served: the public one, or with FEDERATION=on the subgraph's. */
  schema: GraphQLSchema;
  /** Browser origins allowed by CORS ("*": any, never with credentials). */
  corsOrigins: readonly string[];
  /** The gateway's logger: its own at a level, silent, or one given (tests capture lines so). */
  logger: YogaLogger;
  /** The in-process read cache's bounds, whatever its TTL. */
  readCache: { maxBytes: number; maxEntries: number };
  bounds: ReturnType<typeof resolveBounds>;
  pollIntervalMs: number;
  maxRequestBytes: number;
  maxTokens: number;
  maxDepth: number;
  maxAliases: number;
  maxValueDepth: number;
  maxUpstreamCalls: number;
  maxBatchSize: number;
  operationDeadlineMs: number;
  compileAfter: number;
  compileMsPerSecond: number;
  maxLiveQueryReads: number;
  liveRateLimitShare: number;
  sessionRateLimitPerMinute: number;
  upstreamCoalesce: boolean;
  upstreamCacheTtlS: number;
  /** With a fleet: one upstream flight per read across it, and a waiter's longest wait. */
  upstreamFleetFlights: boolean;
  upstreamFleetFlightWaitMs: number;
  processMetrics: boolean;
  /** The APQ store's bounds: the fleet's fallback and the in-process store alike. */
  apq: { capacity: number; maxBytes: number; maxDocumentBytes: number };
  /** The longest query text a registration keeps. */
  registeredBytes: number;
}

export function resolveSettings(options: GatewayOptions): ResolvedSettings {
  const bounds = resolveBounds(options.bounds);
  return {
    schema: options.schema ?? schema,
    corsOrigins: options.corsOrigins ?? ["*"],
    logger:
      typeof options.logging === "object"
        ? options.logging
        : createGatewayLogger(options.logging === false ? "silent" : (options.logging ?? "info")),
    readCache: {
      maxBytes: GATEWAY_DEFAULTS.readCacheMaxBytes,
      maxEntries: GATEWAY_DEFAULTS.readCacheMaxEntries,
    },
    bounds,
    pollIntervalMs: options.pollIntervalMs ?? GATEWAY_DEFAULTS.pollIntervalMs,
    maxRequestBytes: options.maxRequestBytes ?? GATEWAY_DEFAULTS.maxRequestBytes,
    maxTokens: options.maxTokens ?? GATEWAY_DEFAULTS.maxTokens,
    maxDepth: options.maxDepth ?? GATEWAY_DEFAULTS.maxDepth,
    maxAliases: options.maxAliases ?? GATEWAY_DEFAULTS.maxAliases,
    maxValueDepth: GATEWAY_DEFAULTS.maxValueDepth,
    maxUpstreamCalls: options.maxUpstreamCalls ?? GATEWAY_DEFAULTS.maxUpstreamCalls,
    maxBatchSize: options.maxBatchSize ?? GATEWAY_DEFAULTS.maxBatchSize,
    operationDeadlineMs: options.operationDeadlineMs ?? GATEWAY_DEFAULTS.operationDeadlineMs,
    compileAfter: options.compileAfter ?? GATEWAY_DEFAULTS.compileAfter,
    compileMsPerSecond: options.compileMsPerSecond ?? GATEWAY_DEFAULTS.compileMsPerSecond,
    maxLiveQueryReads: options.live?.maxReads ?? GATEWAY_DEFAULTS.maxLiveQueryReads,
    liveRateLimitShare: options.live?.rateLimitShare ?? GATEWAY_DEFAULTS.liveRateLimitShare,
    sessionRateLimitPerMinute:
      options.session?.perSessionPerMinute ?? GATEWAY_DEFAULTS.sessionRateLimitPerMinute,
    upstreamCoalesce: options.sharing?.coalesce ?? GATEWAY_DEFAULTS.upstreamCoalesce,
    upstreamCacheTtlS: options.sharing?.cacheTtlS ?? GATEWAY_DEFAULTS.upstreamCacheTtlS,
    upstreamFleetFlights: options.sharing?.fleetFlights ?? GATEWAY_DEFAULTS.upstreamFleetFlights,
    upstreamFleetFlightWaitMs:
      options.sharing?.fleetFlightWaitMs ?? GATEWAY_DEFAULTS.upstreamFleetFlightWaitMs,
    processMetrics: options.processMetrics ?? false,
    apq: {
      capacity: options.persistedDocuments?.apqCapacity ?? GATEWAY_DEFAULTS.apqCapacity,
      maxBytes: options.persistedDocuments?.apqMaxBytes ?? bounds.apqMaxBytes,
      maxDocumentBytes: bounds.maxCachedDocumentBytes,
    },
    registeredBytes:
      options.persistedDocuments?.maxCachedDocumentBytes ?? bounds.maxCachedDocumentBytes,
  };
}
