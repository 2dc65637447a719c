import { LRUCache } from "lru-cache";

/**
 * Where the read cache keeps answers (issue 20), per key hash and path: in process (this file),
 * or in Redis for a fleet (fleet/read-cache.ts). Each (key hash, path) has a version that every
 * invalidating write bumps; an entry counts only while it was read at the current version, so a
 * read that was in flight during a write can never bring the old value back.
 */
export interface ReadCacheStore {
  /** The entry and the current version of (hash, path); no entry when none is valid. */
  read(hash: string, path: string): Promise<{ entry: string | undefined; version: number }>;
  /** Keeps an answer read at `version` for `ttlS`. */
  write(hash: string, path: string, entry: string, version: number, ttlS: number): Promise<void>;
  /** A write changed these paths: bump their versions and drop their entries. */
  invalidate(hash: string, paths: readonly string[]): Promise<void>;
}

/** An entry as stored: the version it was read at, and the answer. */
export interface CachedAnswer {
  version: number;
  status: number;
  body: unknown;
}

/** The entry's text when it was read at `version`; undefined for a stale or foreign one. */
export function validEntry(text: string | null | undefined, version: number): string | undefined {
  if (text == null) return undefined;
  try {
    return (JSON.parse(text) as Partial<CachedAnswer>).version === version ? text : undefined;
  } catch {
    return undefined;
  }
}

export const READ_CACHE_DEFAULTS = { maxBytes: 32 * 1024 * 1024, maxEntries: 10_000 } as const;

/** The in-process store: an LRU bounded in entries and in bytes, each entry with its TTL. */
export function createMemoryReadCache(
  options: { maxBytes?: number; maxEntries?: number } = {},
): ReadCacheStore {
  const entries = new LRUCache<string, string>({
    max: options.maxEntries ?? READ_CACHE_DEFAULTS.maxEntries,
    maxSize: options.maxBytes ?? READ_CACHE_DEFAULTS.maxBytes,
    sizeCalculation: (text) => Math.max(1, text.length),
  });
  const versions = new LRUCache<string, number>({
    max: options.maxEntries ?? READ_CACHE_DEFAULTS.maxEntries,
  });
  const id = (hash: string, path: string) => `${hash} ${path}`;
  return {
    async read(hash, path) {
      const version = versions.get(id(hash, path)) ?? 0;
      return { entry: validEntry(entries.get(id(hash, path)), version), version };
    },
    async write(hash, path, entry, version, ttlS) {
      if ((versions.get(id(hash, path)) ?? 0) !== version) return;
      entries.set(id(hash, path), entry, { ttl: ttlS * 1000 });
    },
    async invalidate(hash, paths) {
      for (const path of paths) {
        versions.set(id(hash, path), (versions.get(id(hash, path)) ?? 0) + 1);
        entries.delete(id(hash, path));
      }
    },
  };
}
