import { type ReadCacheStore, validEntry } from "../upstream/read-cache.ts";
import type { FleetRedis } from "./redis.ts";

/**
 * The read cache of a fleet (issue 20): `<prefix>cache:<key hash>:<path>` holds an answer, and
 * `<prefix>ver:<key hash>:<path>` the version every invalidating write bumps, both with TTLs, so a
 * write through any instance makes the answer stale for every instance before it is answered.
 * While Redis is unreachable nothing is cached (a miss, then the upstream): an instance could not
 * hear another's invalidation, and a stale answer is worse than a call.
 */
export function createFleetReadCache(redis: FleetRedis, ttlS: number): ReadCacheStore {
  const entryKey = (hash: string, path: string) => redis.key("cache", hash, path);
  const versionKey = (hash: string, path: string) => redis.key("ver", hash, path);
  // A version outlives every entry read at it: an expired version reads as 0, which no entry has.
  const versionTtlS = Math.max(2 * ttlS, 60);
  return {
    async read(hash, path) {
      if (!redis.available()) return { entry: undefined, version: -1 };
      const [entry, version] = await redis.client.mget(
        entryKey(hash, path),
        versionKey(hash, path),
      );
      const current = Number(version ?? 0);
      return { entry: validEntry(entry, current), version: current };
    },
    async write(hash, path, entry, version, entryTtlS) {
      if (version < 0 || !redis.available()) return;
      await redis.client.set(entryKey(hash, path), entry, "EX", entryTtlS);
    },
    async invalidate(hash, paths) {
      if (paths.length === 0) return;
      const batch = redis.client.multi();
      for (const path of paths) {
        batch.incr(versionKey(hash, path));
        batch.expire(versionKey(hash, path), versionTtlS);
        batch.del(entryKey(hash, path));
      }
      await batch.exec();
    },
  };
}
