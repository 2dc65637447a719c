import { randomUUID } from "node:crypto";
import { type ReadCacheStore, validEntry } from "../upstream/read-cache.ts";
import type { FleetRedis } from "./redis.ts";

// A slot's life: a random name kept beside the versions of its tag, so a Redis (or a cluster's
// master) that comes back empty names a new life, and nothing read before counts again.
const LIFE = `local life = redis.call('get', KEYS[1])
if life then return life end
redis.call('set', KEYS[1], ARGV[1], 'EX', ARGV[2])
return ARGV[1]`;
// Holds the resource's version for the entry about to be kept: unchanged since the read, and
// outliving the entry (an expired version would read as 0 again).
const HOLD = `if redis.call('get', KEYS[2]) ~= ARGV[1] then return 0 end
if (redis.call('get', KEYS[1]) or '0') ~= ARGV[2] then return 0 end
if redis.call('exists', KEYS[1]) == 1 and redis.call('ttl', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('expire', KEYS[1], ARGV[3])
end
if redis.call('ttl', KEYS[2]) < tonumber(ARGV[3]) then redis.call('expire', KEYS[2], ARGV[4]) end
return 1`;
// Keeps the entry only while its key's version and life are still those it was read at, and
// makes the key's version exist and outlive it: a refusal must find the version to bump it.
const STORE = `if redis.call('get', KEYS[3]) ~= ARGV[2] then return 0 end
if (redis.call('get', KEYS[2]) or '0') ~= ARGV[3] then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'EX', ARGV[4])
if redis.call('exists', KEYS[2]) == 0 then redis.call('set', KEYS[2], '0') end
if redis.call('ttl', KEYS[2]) < tonumber(ARGV[5]) then redis.call('expire', KEYS[2], ARGV[5]) end
if redis.call('ttl', KEYS[3]) < tonumber(ARGV[5]) then redis.call('expire', KEYS[3], ARGV[6]) end
return 1`;
// An accepted write of the resource: its version moves, and outlives every entry read at it.
const BUMP = `redis.call('incr', KEYS[1])
return redis.call('expire', KEYS[1], ARGV[1])`;
// A refusal bumps the key's version only where the key has one: a refused key that never had an
// entry leaves nothing in Redis.
const EVICT = `if redis.call('exists', KEYS[1]) == 1 then return redis.call('incr', KEYS[1]) end
return 0`;

/**
 * The read cache of a fleet, in two slots per read, so it spreads over a cluster's masters and
 * no script crosses slots. Tagged by the key's hash: `<prefix>cache:{<key hash>}:<call>` holds
 * an answer, `<prefix>kver:{<key hash>}` the version a 401 or 403 for that key bumps, and
 * `<prefix>life:{<key hash>}` the life of that slot. Tagged by the resource:
 * `<prefix>ver:{<resource>}` the version every accepted write of it bumps (any key), and
 * `<prefix>life:{<resource>}`. An entry counts only at the four it was read at, so a Redis (or a
 * master) that comes back empty makes every read in flight before it unfit to keep. All with
 * TTLs. An invalidation (or refusal) that cannot reach Redis is kept and applied before this
 * instance uses the shared cache again; until then it reads and keeps nothing there. While Redis
 * is unreachable or refusing, nothing is cached: a stale answer is worse than a call.
 */
export function createFleetReadCache(redis: FleetRedis, ttlS: number): ReadCacheStore {
  const entryKey = (hash: string, wire: string) => redis.key("cache", hash, wire);
  const keyVersionKey = (hash: string) => redis.key("kver", hash);
  const resourceKey = (resource: string) => redis.key("ver", resource);
  const lifeKey = (tag: string) => redis.key("life", tag);
  // A version outlives every entry read at it: an expired version reads as 0, which no live
  // entry was read at.
  const versionTtlS = Math.max(2 * ttlS, 60);
  const lifeTtlS = Math.max(24 * 60 * 60, 2 * versionTtlS);
  const pendingResources = new Set<string>();
  const pendingKeys = new Set<string>();
  const unknown = { entry: undefined, version: undefined };

  /** Applies what is pending, each change on its own slot: true once nothing is left. */
  async function applyPending(): Promise<boolean> {
    if (pendingResources.size === 0 && pendingKeys.size === 0) return true;
    const sent = (script: string, name: string, ...args: Array<string | number>) =>
      redis.sharedOrLocal(
        async () => {
          await redis.client.eval(script, 1, name, ...args);
          return true;
        },
        () => false,
      );
    await Promise.all([
      ...[...pendingResources].map(async (resource) => {
        if (await sent(BUMP, resourceKey(resource), versionTtlS)) pendingResources.delete(resource);
      }),
      ...[...pendingKeys].map(async (hash) => {
        if (await sent(EVICT, keyVersionKey(hash))) pendingKeys.delete(hash);
      }),
    ]);
    return pendingResources.size === 0 && pendingKeys.size === 0;
  }

  /** Applies now, or keeps for later: never lost, never waited on past the command timeout. */
  async function change(resources: readonly string[], keys: readonly string[]): Promise<void> {
    for (const resource of resources) pendingResources.add(resource);
    for (const hash of keys) pendingKeys.add(hash);
    await applyPending();
  }

  /** The life of a tag's slot (a fresh or emptied slot has none yet): the first namer wins. */
  const lifeOf = async (tag: string, known: string | null) =>
    known ?? String(await redis.client.eval(LIFE, 1, lifeKey(tag), randomUUID(), lifeTtlS));

  // Whatever is pending goes as soon as Redis is back, before any read needs it.
  redis.onAvailabilityChange((available) => {
    if (available) void applyPending();
  });

  return {
    async read(hash, resource, wire) {
      return redis.sharedOrLocal(
        async () => {
          if (!(await applyPending())) return unknown;
          const [[entry, keyVersion, keyLife], [resourceVersion, resourceLife]] = await Promise.all(
            [
              redis.client.mget(entryKey(hash, wire), keyVersionKey(hash), lifeKey(hash)),
              redis.client.mget(resourceKey(resource), lifeKey(resource)),
            ],
          );
          const lives = await Promise.all([
            lifeOf(hash, keyLife ?? null),
            lifeOf(resource, resourceLife ?? null),
          ]);
          const version = `${lives[0]}.${lives[1]}.${resourceVersion ?? 0}.${keyVersion ?? 0}`;
          return { entry: validEntry(entry, version), version };
        },
        () => unknown,
      );
    },
    async write(hash, resource, wire, entry, version, entryTtlS) {
      if (pendingResources.size > 0 || pendingKeys.size > 0) return;
      const [keyLife, resourceLife, resourceVersion, keyVersion] = version.split(".");
      await redis.sharedOrLocal(
        async () => {
          const held = await redis.client.eval(
            HOLD,
            2,
            resourceKey(resource),
            lifeKey(resource),
            resourceLife ?? "",
            resourceVersion ?? "",
            versionTtlS,
            lifeTtlS,
          );
          if (held !== 1) return;
          await redis.client.eval(
            STORE,
            3,
            entryKey(hash, wire),
            keyVersionKey(hash),
            lifeKey(hash),
            entry,
            keyLife ?? "",
            keyVersion ?? "",
            entryTtlS,
            versionTtlS,
            lifeTtlS,
          );
        },
        () => null,
      );
    },
    invalidate: (resources) => change(resources, []),
    evictKey: (hash) => change([], [hash]),
  };
}
