import { Redis } from "ioredis";
import { FLEET_REDIS_DEFAULTS } from "./redis-defaults.ts";

/**
 * The fleet's one Redis connection (REDIS_URL), shared by every piece of fleet-wide state: APQ,
 * the memory of upstream 429s, session limits, poller leases and the read cache. Redis trouble
 * never takes the gateway down: every command fails within `commandTimeoutMs` instead of queueing
 * while Redis is away, and `available` says whether callers should use shared state or their own
 * in-process fallback right now. Every key is under `prefix` (REDIS_PREFIX).
 */
export interface FleetRedis {
  /** The command connection (ioredis). Never used for SUBSCRIBE: see `subscriber()`. */
  readonly client: Redis;
  /** REDIS_PREFIX, e.g. "voicegraph:". */
  readonly prefix: string;
  /** A prefixed key (or channel) from its parts: key("apq", hash) → "voicegraph:apq:<hash>". */
  key(...parts: string[]): string;
  /** Whether the connection is ready now: false while Redis is unreachable. */
  available(): boolean;
  /** Told on every change of `available()` (logged once per change, shown in /metrics and /readyz). */
  onAvailabilityChange(listener: (available: boolean) => void): () => void;
  /** A second connection in subscriber mode (pub/sub needs its own), with the same settings. */
  subscriber(): Redis;
  close(): Promise<void>;
}

export interface FleetRedisOptions {
  /** redis:// or rediss:// */
  url: string;
  /** Default "voicegraph:". */
  prefix?: string;
  /** Longest any Redis command may take before the caller falls back; default 250 ms. */
  commandTimeoutMs?: number;
}

export function createFleetRedis(options: FleetRedisOptions): FleetRedis {
  const prefix = options.prefix ?? FLEET_REDIS_DEFAULTS.prefix;
  const commandTimeout = options.commandTimeoutMs ?? FLEET_REDIS_DEFAULTS.commandTimeoutMs;
  const settings = {
    commandTimeout,
    connectTimeout: Math.max(commandTimeout, 1000),
    // Fail at once while disconnected instead of queueing: a request never waits on Redis.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // Keep trying to come back, at most every 2 s.
    retryStrategy: (times: number) => Math.min(times * 100, 2000),
    lazyConnect: false,
  };
  const client = new Redis(options.url, settings);
  const subscribers: Redis[] = [];
  const listeners = new Set<(available: boolean) => void>();
  let ready = false;
  const setReady = (next: boolean) => {
    if (next === ready) return;
    ready = next;
    for (const listener of listeners) listener(next);
  };
  client.on("ready", () => setReady(true));
  client.on("close", () => setReady(false));
  client.on("end", () => setReady(false));
  // ioredis emits connection errors as events; without a listener Node would treat them as fatal.
  client.on("error", () => undefined);

  return {
    client,
    prefix,
    key: (...parts) => `${prefix}${parts.join(":")}`,
    available: () => ready,
    onAvailabilityChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    subscriber() {
      // Subscriber mode queues its SUBSCRIBE until connected and resubscribes after a reconnect.
      // Its commands are never flushed with an error: ioredis's own resubscription has no one to
      // catch it, and a link that drops again mid-resubscribe must not reject it unhandled.
      const connection = new Redis(options.url, {
        ...settings,
        enableOfflineQueue: true,
        maxRetriesPerRequest: null,
        commandTimeout: undefined,
      });
      connection.on("error", () => undefined);
      subscribers.push(connection);
      return connection;
    },
    async close() {
      listeners.clear();
      for (const connection of [client, ...subscribers]) connection.disconnect();
    },
  };
}
