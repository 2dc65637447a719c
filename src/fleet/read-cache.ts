import { randomUUID } from "node:crypto";
import { type ReadCacheStore, validEntry } from "../upstream/read-cache.ts";
import type { FleetRedis } from "./redis.ts";

// Keeps the entry only while the versions are still those it was read at (no write when Redis
// came back empty since the read: its epoch changed), and makes both versions outlive the entry:
// an expired version would read as 0 again, and a refusal must find the key's version to bump it.
const STORE = `local epoch = redis.call('get', KEYS[4])
if not epoch then
  redis.call('set', KEYS[4], ARGV[6], 'EX', ARGV[5])
  return 0
end
local version = epoch .. '.' .. (redis.call('get', KEYS[2]) or '0') .. '.' .. (redis.call('get', KEYS[3]) or '0')
if version ~= ARGV[2] then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'EX', ARGV[3])
if redis.call('exists', KEYS[3]) == 0 then redis.call('set', KEYS[3], '0') end
for _, name in ipairs({KEYS[2], KEYS[3]}) do
  if redis.call('exists', name) == 1 and redis.call('ttl', name) < tonumber(ARGV[4]) then
    redis.call('expire', name, ARGV[4])
  end
end
if redis.call('ttl', KEYS[4]) < tonumber(ARGV[4]) then redis.call('expire', KEYS[4], ARGV[5]) end
return 1`;
// A refusal bumps the key's version only where the key has one: a refused key that never had an
// entry leaves nothing in Redis.
const EVICT = `if redis.call('exists', KEYS[1]) == 1 then return redis.call('incr', KEYS[1]) end
return 0`;

/**
 * The read cache of a fleet: `<prefix>cache:<key hash>:<call>` holds an answer;
 * `<prefix>ver:<resource>` the version every accepted write of that resource bumps (any key),
 * `<prefix>kver:<key hash>` the version a 401 or 403 for that key bumps, and `<prefix>epoch` a
 * random name for this Redis's life, so a Redis that comes back empty makes every read in flight
 * before it unfit to keep. All with TTLs; an entry is kept only while none moved since its read
 * began. An invalidation (or refusal) that cannot reach Redis is kept and applied before this
 * instance uses the shared cache again; until then it reads and keeps nothing there. While Redis
 * is unreachable nothing is cached: a stale answer is worse than a call.
 */
export function createFleetReadCache(redis: FleetRedis, ttlS: number): ReadCacheStore {
  const entryKey = (hash: string, wire: string) => redis.key("cache", hash, wire);
  const resourceKey = (resource: string) => redis.key("ver", resource);
  const keyVersionKey = (hash: string) => redis.key("kver", hash);
  const epochKey = redis.key("epoch");
  // A version outlives every entry read at it: an expired version reads as 0, which no live
  // entry was read at.
  const versionTtlS = Math.max(2 * ttlS, 60);
  const epochTtlS = Math.max(24 * 60 * 60, 2 * versionTtlS);
  const pendingResources = new Set<string>();
  const pendingKeys = new Set<string>();

  async function applyPending(): Promise<boolean> {
    if (pendingResources.size === 0 && pendingKeys.size === 0) return true;
    if (!redis.available()) return false;
    const resources = [...pendingResources];
    const keys = [...pendingKeys];
    try {
      await send(resources, keys);
    } catch {
      return false;
    }
    for (const resource of resources) pendingResources.delete(resource);
    for (const hash of keys) pendingKeys.delete(hash);
    return true;
  }

  async function send(resources: readonly string[], keys: readonly string[]): Promise<void> {
    const batch = redis.client.multi();
    for (const resource of resources) {
      batch.incr(resourceKey(resource));
      batch.expire(resourceKey(resource), versionTtlS);
    }
    for (const hash of keys) batch.eval(EVICT, 1, keyVersionKey(hash));
    const results = await batch.exec();
    if (results === null || results.some(([error]) => error)) throw new Error("not applied");
  }

  /** Applies now, or keeps for later: never lost, never waited on past the command timeout. */
  async function change(resources: readonly string[], keys: readonly string[]): Promise<void> {
    for (const resource of resources) pendingResources.add(resource);
    for (const hash of keys) pendingKeys.add(hash);
    await applyPending();
  }

  /** Names this Redis's life (a fresh or emptied Redis has none yet): the first namer wins. */
  async function startEpoch(): Promise<string> {
    await redis.client.set(epochKey, randomUUID(), "EX", epochTtlS, "NX");
    return (await redis.client.get(epochKey)) ?? "";
  }

  // Whatever is pending goes as soon as Redis is back, before any read needs it.
  redis.onAvailabilityChange((available) => {
    if (available) void applyPending();
  });

  return {
    async read(hash, resource, wire) {
      if (!redis.available() || !(await applyPending())) {
        return { entry: undefined, version: undefined };
      }
      const [epoch, entry, resourceVersion, keyVersion] = await redis.client.mget(
        epochKey,
        entryKey(hash, wire),
        resourceKey(resource),
        keyVersionKey(hash),
      );
      const life = epoch ?? (await startEpoch());
      const version = `${life}.${resourceVersion ?? 0}.${keyVersion ?? 0}`;
      return { entry: validEntry(entry, version), version };
    },
    async write(hash, resource, wire, entry, version, entryTtlS) {
      if (!redis.available() || pendingResources.size > 0 || pendingKeys.size > 0) return;
      await redis.client.eval(
        STORE,
        4,
        entryKey(hash, wire),
        resourceKey(resource),
        keyVersionKey(hash),
        epochKey,
        entry,
        version,
        entryTtlS,
        versionTtlS,
        epochTtlS,
        randomUUID(),
      );
    },
    invalidate: (resources) => change(resources, []),
    evictKey: (hash) => change([], [hash]),
  };
}
