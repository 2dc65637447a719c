import type { FleetRedis } from "./redis.ts";

/**
 * The reads the pollers of one rate-limit window have spent, counted for the whole fleet (Redis)
 * or for this instance (in process). A window is named by what the upstream advertises for it,
 * `X-RateLimit-Limit` and `X-RateLimit-Reset`: every key of one organization spends one bucket
 * and so sees one window, and keys of two organizations whose windows end in the same second
 * share one count (stricter than needed, never looser).
 */
export interface WindowBudget {
  /** Counts one read of the window; the count so far including it, or undefined if unknown. */
  spend(window: string, expiresAtMs: number): Promise<number | undefined>;
}

export function createMemoryWindowBudget(now: () => number = Date.now): WindowBudget {
  const spent = new Map<string, { count: number; expiresAtMs: number }>();
  return {
    async spend(window, expiresAtMs) {
      const at = now();
      for (const [name, entry] of spent) if (entry.expiresAtMs <= at) spent.delete(name);
      const entry = spent.get(window) ?? { count: 0, expiresAtMs };
      entry.count += 1;
      spent.set(window, entry);
      return entry.count;
    },
  };
}

/**
 * The live pollers' spending of each rate-limit window, counted for the whole fleet in
 * `<prefix>{live-window:<limit>:<reset>}` (one key, so one slot), which expires a minute after
 * the window. While Redis cannot count, this instance counts alone.
 */
export function createRedisWindowBudget(redis: FleetRedis, fallback: WindowBudget): WindowBudget {
  return {
    spend(window, expiresAtMs) {
      const key = `${redis.prefix}{live-window:${window}}`;
      return redis.sharedOrLocal(
        async () => {
          const replies = await redis.client.multi().incr(key).pexpireat(key, expiresAtMs).exec();
          const [error, count] = replies?.[0] ?? [new Error("no reply"), undefined];
          if (error) throw error;
          return Number(count);
        },
        () => fallback.spend(window, expiresAtMs),
      );
    },
  };
}
