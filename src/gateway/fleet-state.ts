import { Gauge, type Registry } from "prom-client";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { createSharedQueryStore } from "../fleet/apq-store.ts";
import { shareKeyLimits } from "../fleet/key-limits.ts";
import { createRedisPollerStore } from "../fleet/poller-lease.ts";
import type { PollerStore } from "../fleet/poller-store.ts";
import type { FleetRedis } from "../fleet/redis.ts";
import { createFleetSessionLimiter } from "../fleet/session-limits.ts";
import {
  createMemoryWindowBudget,
  createRedisWindowBudget,
  type WindowBudget,
} from "../fleet/window-budget.ts";
import type { KeyMemory } from "../upstream/key-memory.ts";
import {
  createMemoryQueryStore,
  type PersistedQueryStore,
} from "./admission/use-persisted-documents.ts";

/** REDIS_URL's connection, and what of this instance the fleet shares (docs/fleet.md). */
export interface FleetOptions {
  redis: FleetRedis;
  /** The upstream client's key memory: its 429 blocks are shared with every instance. */
  keyMemory?: KeyMemory;
}

/** The fleet-wide state one gateway uses: every piece falls back to the instance's own. */
export interface FleetState {
  pollers: PollerStore;
  /** The live pollers' spending of each rate-limit window, fleet-wide. */
  windowBudget: WindowBudget;
  apqStore: PersistedQueryStore;
  sessionLimiter(perMinute: number): RateLimiterAbstract;
  /** What /readyz says of Redis. */
  redisState(): "shared" | "unreachable";
  close(): void;
}

/**
 * Wires REDIS_URL's connection into the gateway: APQ, 429 blocks, session limits and pollers in
 * Redis, each with its in-process fallback; the connection's state in `/metrics`
 * (`voicegraph_redis_available`) and in the log, once per change.
 */
export function createFleetState(
  options: FleetOptions,
  settings: {
    pollIntervalMs: number;
    apq: { capacity: number; maxBytes: number; maxDocumentBytes: number };
    registry: Registry;
    log: (level: "info" | "warn", message: string) => void;
  },
): FleetState {
  const { redis } = options;
  const pollers = createRedisPollerStore(redis, { intervalMs: settings.pollIntervalMs });
  const keyLimits = options.keyMemory ? shareKeyLimits(redis, options.keyMemory) : undefined;
  new Gauge({
    name: "voicegraph_redis_available",
    help: "1 while REDIS_URL's Redis answers and fleet state is shared; 0 while each instance uses its own.",
    registers: [settings.registry],
    collect() {
      this.set(redis.available() ? 1 : 0);
    },
  });
  const stopWatching = redis.onAvailabilityChange((available) =>
    available
      ? settings.log(
          "info",
          `Redis is reachable: fleet state is shared (instance ${pollers.instanceId})`,
        )
      : settings.log(
          "warn",
          `Redis is unreachable: serving with this instance's own state until it returns (instance ${pollers.instanceId})`,
        ),
  );
  return {
    pollers,
    windowBudget: createRedisWindowBudget(redis, createMemoryWindowBudget()),
    apqStore: createSharedQueryStore(redis, {
      maxDocumentBytes: settings.apq.maxDocumentBytes,
      fallback: createMemoryQueryStore(settings.apq),
    }),
    sessionLimiter: (perMinute) => createFleetSessionLimiter(redis, perMinute),
    redisState: () => (redis.available() ? "shared" : "unreachable"),
    close() {
      stopWatching();
      keyLimits?.close();
      pollers.close();
    },
  };
}
