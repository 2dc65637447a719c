import type { FleetRedis } from "./redis.ts";

/** The store the gateway's APQ support takes (gateway/preparation/use-persisted-documents.ts has the same shape). */
export interface QueryStore {
  get(key: string): string | undefined | Promise<string | undefined>;
  set(key: string, document: string): void | Promise<void>;
}

export interface SharedQueryStoreOptions {
  /** How long a registration is kept after its last registration; default 24 h. */
  ttlS?: number;
  /** A document longer than this is never stored (MAX_CACHED_DOCUMENT_BYTES). */
  maxDocumentBytes: number;
  /** Where registrations go while Redis is away: the instance's own bounded store. */
  fallback: QueryStore;
}

export const SHARED_APQ_DEFAULTS = { ttlS: 24 * 60 * 60 } as const;

/**
 * Automatic persisted queries registered once for the fleet: `<prefix>apq:{<key hash>:<sha256>}`,
 * each with a TTL (the key is a keyed hash already: no API key reaches Redis). Every
 * registration is written to the instance's own store too, and every read falls back to it
 * while Redis is unreachable or slow, so losing Redis costs a re-registration, never an answer.
 */
export function createSharedQueryStore(
  redis: FleetRedis,
  options: SharedQueryStoreOptions,
): QueryStore {
  const ttlS = options.ttlS ?? SHARED_APQ_DEFAULTS.ttlS;
  const { fallback, maxDocumentBytes } = options;
  return {
    async get(key) {
      const local = await fallback.get(key);
      if (local !== undefined) return local;
      const shared = await redis.sharedOrLocal(
        () => redis.client.get(redis.key("apq", key)),
        () => null,
      );
      if (shared === null) return undefined;
      await fallback.set(key, shared);
      return shared;
    },
    async set(key, document) {
      if (Buffer.byteLength(document) > maxDocumentBytes) return;
      await fallback.set(key, document);
      await redis.sharedOrLocal(
        () => redis.client.set(redis.key("apq", key), document, "EX", ttlS),
        () => null,
      );
    },
  };
}
