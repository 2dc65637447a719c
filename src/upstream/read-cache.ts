import { LRUCache } from "lru-cache";
import { expiringLru } from "./expiring-lru.ts";

/**
 * Where the read cache keeps answers: in process (this file), or in Redis for a fleet
 * (fleet/read-cache.ts). An entry is named by its key's hash and its call as sent (`wire`), and
 * depends on two versions: its resource's (the path without query, which every accepted write
 * that changes it bumps, for every key: IDs are global) and its key's (which every 401 or 403
 * for that key bumps). An entry counts only at the versions it was read at, and is kept only
 * while both are still what they were before its call went upstream: a read in flight during a
 * write or a refusal never brings the old answer back.
 */
export interface ReadCacheStore {
  /**
   * The entry of (hash, wire) if still valid, and the versions now as one opaque string;
   * `version` undefined when the store cannot tell now (then nothing is read or kept).
   */
  read(
    hash: string,
    resource: string,
    wire: string,
  ): Promise<{ entry: string | undefined; version: string | undefined }>;
  /** Keeps an answer read at `version` for `ttlS`, unless either version moved since. */
  write(
    hash: string,
    resource: string,
    wire: string,
    entry: string,
    version: string,
    ttlS: number,
  ): Promise<void>;
  /** Accepted writes changed these resources: every key's entries of them stop counting. */
  invalidate(resources: readonly string[]): Promise<void>;
  /** The upstream refused this key (401/403): none of its entries counts any more. */
  evictKey(hash: string): Promise<void>;
}

/** An entry as stored: the versions it was read at, and the answer. */
export interface CachedAnswer {
  version: string;
  status: number;
  body: unknown;
}

/** The entry's text when it was read at `version`; undefined for a stale or foreign one. */
export function validEntry(
  text: string | null | undefined,
  version: string | undefined,
): string | undefined {
  if (text == null || version === undefined) return undefined;
  try {
    return (JSON.parse(text) as Partial<CachedAnswer>).version === version ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Versions in a bounded map: every bump takes the next number of one counter, and a version
 * the map forgot reads as the highest it ever forgot, so forgetting one never makes an older
 * entry count again.
 */
class Versions {
  #next = 0;
  #floor = 0;
  readonly #map: LRUCache<string, number>;

  constructor(max: number) {
    this.#map = new LRUCache({
      max,
      dispose: (value, _key, reason) => {
        if (reason === "evict") this.#floor = Math.max(this.#floor, value);
      },
    });
  }

  get(name: string): number {
    return this.#map.get(name) ?? this.#floor;
  }

  bump(name: string): void {
    this.#next = Math.max(this.#next, this.#floor) + 1;
    this.#map.set(name, this.#next);
  }
}

/** The in-process store: an LRU bounded in entries and in bytes, each entry with its TTL. */
export function createMemoryReadCache(options: {
  maxBytes: number;
  maxEntries: number;
  now?: () => number;
}): ReadCacheStore {
  const max = options.maxEntries;
  const now = options.now;
  const entries = expiringLru<string, string>({
    max,
    maxSize: options.maxBytes,
    sizeCalculation: (text) => Math.max(1, text.length),
    ...(now ? { perf: { now } } : {}),
  });
  const resources = new Versions(max);
  const keys = new Versions(max);
  const versionOf = (hash: string, resource: string) =>
    `${resources.get(resource)}.${keys.get(hash)}`;
  const id = (hash: string, wire: string) => `${hash} ${wire}`;
  return {
    async read(hash, resource, wire) {
      const version = versionOf(hash, resource);
      return { entry: validEntry(entries.get(id(hash, wire)), version), version };
    },
    async write(hash, resource, wire, entry, version, ttlS) {
      if (versionOf(hash, resource) !== version) return;
      entries.set(id(hash, wire), entry, { ttl: ttlS * 1000 });
    },
    async invalidate(paths) {
      for (const resource of paths) resources.bump(resource);
    },
    async evictKey(hash) {
      keys.bump(hash);
    },
  };
}
