import type { YogaLogger } from "graphql-yoga";
import { createCursorKey } from "../../connections/cursor.ts";
import { createFleetReadCache } from "../../fleet/read-cache.ts";
import { createFleetWriteVersion } from "../../fleet/write-version.ts";
import type { UpstreamClient, UpstreamRequest } from "../../upstream/client.ts";
import type { FleetFlights } from "../../upstream/fleet-flights.ts";
import { withKeyConcurrency } from "../../upstream/key-concurrency.ts";
import { createKeyHasher, hashesPerConnection, type KeyHasher } from "../../upstream/key-memory.ts";
import { createMemoryReadCache } from "../../upstream/read-cache.ts";
import { withSharing } from "../../upstream/sharing.ts";
import type { ContextDependencies } from "../execution/context.ts";
import { ConversationStatusHub } from "../live/conversation-status-hub.ts";
import { LiveHub } from "../live/live-hub.ts";
import { registerLiveMetrics } from "../live/live-metrics.ts";
import { GatewayMetrics } from "../observability/metrics.ts";
import { createSessionAuthorizer } from "../session/session-mode.ts";
import type { GatewayOptions } from "../settings/gateway-options.ts";
import { type ResolvedSettings, resolveSettings } from "../settings/resolved-settings.ts";
import { createDocumentFacts, type DocumentFactsCache } from "../shared/document-facts.ts";
import { createFleetState, type FleetState } from "./fleet-state.ts";

/**
 * What every stage of the gateway is built from: the options with each default applied once,
 * in resolved-settings.ts (the plugins take values, not options with defaults), and the parts made once per
 * gateway. Nothing in it is shared with another gateway of the process.
 */
export interface GatewayParts {
  options: GatewayOptions;
  /** Every figure, its default applied once (settings.ts): read these, never `options`' own. */
  settings: ResolvedSettings;
  keyHash: KeyHasher;
  /** A connection's operations usually carry one key: its hash is worked out once per connection. */
  keyHashOn: (connection?: object) => KeyHasher;
  documents: DocumentFactsCache;
  /** The upstream as operations call it: per-key fairness and sharing around the client. */
  upstream: UpstreamClient;
  metrics: GatewayMetrics;
  fleet: FleetState | undefined;
  conversationStatusHub: ConversationStatusHub;
  liveHub: LiveHub;
  /** What each operation's context is made with. */
  dependencies: ContextDependencies;
  /** Session mode's exchange of a token for its organization's key; absent in passthrough. */
  authorize: ReturnType<typeof createSessionAuthorizer> | undefined;
  /** Writes through yoga's logger once the app is made (`attachLogger`). */
  log(level: "info" | "warn", message: string): void;
  attachLogger(logger: YogaLogger): void;
}

export function gatewayParts(options: GatewayOptions): GatewayParts {
  // Every name a fleet keeps in Redis for a key is keyed by the fleet's shared secret.
  if (options.fleet && options.cursorSecret === undefined) {
    throw new Error("a fleet needs cursorSecret (CURSOR_SECRET): key hashes are keyed by it");
  }
  // Per gateway, never per process: two gateways of one process share no state (with a fleet,
  // every instance's hasher is keyed alike by CURSOR_SECRET).
  const keyHash = createKeyHasher(options.fleet ? options.cursorSecret : undefined);
  const settings = resolveSettings(options);
  const { bounds, pollIntervalMs, apq } = settings;
  let logger: YogaLogger | undefined;
  const log = (level: "info" | "warn", message: string) => logger?.[level](message);
  const metrics = new GatewayMetrics(
    {
      total: () => conversationStatusHub.pollerCount,
      owned: () => conversationStatusHub.ownedPollerCount,
    },
    { processMetrics: settings.processMetrics },
  );
  const fleet = options.fleet
    ? createFleetState(options.fleet, {
        pollIntervalMs,
        apq,
        registry: metrics.registry,
        log,
        flights: settings.upstreamFleetFlights,
        flightWaitMs: settings.upstreamFleetFlightWaitMs,
      })
    : undefined;
  const writeVersion = options.fleet ? createFleetWriteVersion(options.fleet.redis) : undefined;
  const upstream = sharedUpstream(options, settings, keyHash, writeVersion, fleet?.flights);
  // One poller mechanism for all live data: `@live` reads and operation 8 alike.
  const liveHub = new LiveHub({
    upstream,
    keyHash,
    intervalMs: pollIntervalMs,
    rateLimitShare: settings.liveRateLimitShare,
    ...(fleet ? { store: fleet.pollers, budget: fleet.windowBudget } : {}),
    ...(writeVersion ? { writeVersion } : {}),
    onCallDone: metrics.recordUpstreamCall,
    onPollerStart: ({ requestId, instanceId }) =>
      log("info", `poller started: request ID ${requestId}, instance ${instanceId}`),
  });
  const conversationStatusHub = new ConversationStatusHub({
    hub: liveHub,
    keyHash,
    ...(options.upstream.reading ? { reading: options.upstream.reading } : {}),
  });
  registerLiveMetrics(metrics.registry, liveHub);
  const perSessionPerMinute = settings.sessionRateLimitPerMinute;
  return {
    options,
    settings,
    keyHash,
    keyHashOn: hashesPerConnection(keyHash),
    documents: createDocumentFacts(),
    upstream,
    metrics,
    fleet,
    conversationStatusHub,
    liveHub,
    dependencies: {
      upstream,
      keyHash,
      onWrite: (req: UpstreamRequest) => liveHub.invalidate(req),
      conversationStatusHub,
      cursorKey: createCursorKey(options.cursorSecret),
      maxUpstreamCalls: settings.maxUpstreamCalls,
      maxUpstreamBytes: bounds.maxUpstreamBytes,
      onCallDone: metrics.recordUpstreamCall,
      onCallShared: metrics.recordSharedCall,
    },
    authorize: options.session
      ? createSessionAuthorizer({
          ...(fleet ? { limiter: fleet.sessionLimiter(perSessionPerMinute) } : {}),
          ...options.session,
          perSessionPerMinute,
        })
      : undefined,
    log,
    attachLogger: (yogaLogger) => {
      logger = yogaLogger;
    },
  };
}

/**
 * Fairness between keys over the one connection pool (docs/limits.md), and one call for
 * identical reads of one key (docs/upstream-sharing.md).
 */
function sharedUpstream(
  options: GatewayOptions,
  settings: ResolvedSettings,
  keyHash: KeyHasher,
  writeVersion: ReturnType<typeof createFleetWriteVersion> | undefined,
  flights: FleetFlights | undefined,
): UpstreamClient {
  const cacheTtlS = settings.upstreamCacheTtlS;
  return withSharing(withKeyConcurrency(options.upstream, settings.bounds, keyHash), {
    keyHash,
    coalesce: settings.upstreamCoalesce,
    ...(writeVersion ? { fleet: writeVersion } : {}),
    ...(flights ? { flights } : {}),
    ...(cacheTtlS > 0
      ? {
          cache: {
            ttlS: cacheTtlS,
            store: options.fleet
              ? createFleetReadCache(options.fleet.redis, cacheTtlS)
              : createMemoryReadCache({
                  ...settings.readCache,
                  ...(options.now ? { now: options.now } : {}),
                }),
          },
        }
      : {}),
  });
}
