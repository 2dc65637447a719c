import { Counter, Gauge, type Registry } from "prom-client";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { createSharedQueryStore } from "../../fleet/apq-store.ts";
import { createFleetFlights, type FleetFlightLane } from "../../fleet/flights.ts";
import { shareKeyLimits } from "../../fleet/key-limits.ts";
import { createFleetLogouts, type FleetLogouts } from "../../fleet/logouts.ts";
import { createRedisPollerStore } from "../../fleet/poller-lease.ts";
import type { PollerStore } from "../../fleet/poller-store.ts";
import type { FleetRedis, FleetRedisState } from "../../fleet/redis.ts";
import { createFleetSessionLimiter } from "../../fleet/session-limits.ts";
import {
  createMemoryWindowBudget,
  createRedisWindowBudget,
  type WindowBudget,
} from "../../fleet/window-budget.ts";
import type { KeyMemory } from "../../upstream/key-memory.ts";
import {
  createMemoryQueryStore,
  type PersistedQueryStore,
} from "../preparation/use-persisted-documents.ts";

/** REDIS_URL's connection, and what of this instance the fleet shares (docs/fleet.md). */
export interface FleetOptions {
  redis: FleetRedis;
  /** The upstream client's key memory: its 429 blocks are shared with every instance. */
  keyMemory?: KeyMemory;
}

/** The fleet-wide state one gateway uses: every piece falls back to the instance's own. */
export interface FleetState {
  pollers: PollerStore;
  /** One upstream flight per read across the fleet (UPSTREAM_FLEET_FLIGHTS), on the pollers' store. */
  flights: FleetFlightLane | undefined;
  /** The live pollers' spending of each rate-limit window, fleet-wide. */
  windowBudget: WindowBudget;
  apqStore: PersistedQueryStore;
  sessionLimiter(perMinute: number): RateLimiterAbstract;
  /**
   * Session logouts for the fleet (SESSION_COOKIE's `/graphql/logout`), made on first use: only a
   * gateway that serves logouts listens on their channel.
   */
  logouts(): FleetLogouts;
  /**
   * What /readyz says of Redis: its state, the last refusal while it is degraded, and the reads
   * that fell back from a fleet flight to a call of their own, by reason, once there are any.
   */
  redisState(): {
    redis: FleetRedisState;
    redisReason?: string;
    flightFallbacks?: Partial<Record<string, number>>;
  };
  close(): void;
}

/**
 * Wires REDIS_URL's connection into the gateway: APQ, 429 blocks, session limits, logouts and
 * pollers in Redis, each with its in-process fallback; the connection's state in `/metrics`
 * (`voicegraph_redis_available`) and in the log, once per change.
 */
export function createFleetState(
  options: FleetOptions,
  settings: {
    pollIntervalMs: number;
    apq: { capacity: number; maxBytes: number; maxDocumentBytes: number };
    registry: Registry;
    log: (level: "info" | "warn", message: string) => void;
    /** UPSTREAM_FLEET_FLIGHTS and UPSTREAM_FLEET_FLIGHT_WAIT_MS. */
    flights: boolean;
    flightWaitMs: number;
  },
): FleetState {
  const { redis } = options;
  const pollers = createRedisPollerStore(redis, { intervalMs: settings.pollIntervalMs });
  const flights = settings.flights
    ? createFleetFlights(pollers, { maxWaitMs: settings.flightWaitMs, registry: settings.registry })
    : undefined;
  const keyLimits = options.keyMemory ? shareKeyLimits(redis, options.keyMemory) : undefined;
  new Gauge({
    name: "voicegraph_redis_available",
    help: "1 while Redis answers and fleet state is shared; 0 while each instance uses its own (Redis unreachable, or refusing commands).",
    registers: [settings.registry],
    collect() {
      this.set(redis.available() ? 1 : 0);
    },
  });
  countsByKind(settings.registry, {
    name: "voicegraph_redis_failures_total",
    help: "Redis commands that failed, by kind: the server's refusal (OOM, MOVED, CROSSSLOT, NOSCRIPT, READONLY, WRONGTYPE, ERR, …), timeout or unreachable.",
    counts: () => redis.failures.counts(),
  });
  countsByKind(settings.registry, {
    name: "voicegraph_redis_messages_dropped_total",
    help: "Fleet messages heard on Redis that did not parse (malformed or foreign), dropped, by kind of channel.",
    counts: () => redis.channels.dropped(),
  });
  const stopWarning = redis.failures.onWarning((line) => settings.log("warn", line));
  const stopWatching = redis.onAvailabilityChange((available) => {
    const instance = `instance ${pollers.instanceId}`;
    if (available) settings.log("info", `Redis is reachable: fleet state is shared (${instance})`);
    // A refusal has its own line (redis-failures.ts).
    else if (redis.state() === "unreachable") {
      settings.log(
        "warn",
        `Redis is unreachable: serving with this instance's own state until it returns (${instance})`,
      );
    }
  });
  let logouts: FleetLogouts | undefined;
  return {
    pollers,
    flights,
    windowBudget: createRedisWindowBudget(redis, createMemoryWindowBudget()),
    apqStore: createSharedQueryStore(redis, {
      maxDocumentBytes: settings.apq.maxDocumentBytes,
      fallback: createMemoryQueryStore(settings.apq),
    }),
    sessionLimiter: (perMinute) => createFleetSessionLimiter(redis, perMinute),
    logouts() {
      logouts ??= createFleetLogouts(redis);
      return logouts;
    },
    redisState() {
      const reason = redis.degradedReason();
      const fallbacks = flights?.fallbacks() ?? {};
      return {
        ...(reason === undefined
          ? { redis: redis.state() }
          : { redis: "degraded" as const, redisReason: reason }),
        ...(Object.keys(fallbacks).length > 0 ? { flightFallbacks: fallbacks } : {}),
      };
    },
    close() {
      stopWatching();
      stopWarning();
      keyLimits?.close();
      logouts?.close();
      pollers.close();
    },
  };
}

/** A counter labelled `kind` that follows running totals kept elsewhere. */
function countsByKind(
  registry: Registry,
  counter: { name: string; help: string; counts: () => ReadonlyMap<string, number> },
): void {
  const counted = new Map<string, number>();
  new Counter({
    name: counter.name,
    help: counter.help,
    labelNames: ["kind"],
    registers: [registry],
    collect() {
      for (const [kind, count] of counter.counts()) {
        this.inc({ kind }, count - (counted.get(kind) ?? 0));
        counted.set(kind, count);
      }
    },
  });
}
