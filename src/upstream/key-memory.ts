import { createHmac, createSecretKey, type KeyObject, randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";
import { bearerToken } from "./authorization.ts";
import { UpstreamError } from "./errors.ts";
import { DEFAULT_RETRY_AFTER_S, MAX_LOCAL_BLOCK_S } from "./rate-limit.ts";

/**
 * One form per key, whatever the spelling of its header: the scheme in any case, any spaces
 * around and between (RFC 7235), so `Bearer  k ` and `bearer k` are one key for every per-key
 * state (rate-limit memory, pollers). The header itself is still forwarded verbatim.
 */
export function normalizedKey(authorization: string): string {
  const token = bearerToken(authorization);
  return token !== undefined ? `Bearer ${token}` : authorization.trim().replace(/\s+/g, " ");
}

/** How one gateway names a key in every per-key state: see createKeyHasher. */
export type KeyHasher = (authorization: string) => string;

/**
 * What per-key state is keyed by: an HMAC-SHA-256 of the normalised key, so no key is ever held
 * in memory or Redis as a name, and nobody without the secret can tell whose an entry is. A
 * fleet names its secret (CURSOR_SECRET), so every instance names a key alike in Redis; derived,
 * not used as is, since the cursor HMAC keeps a key of its own. Without one, a random secret of
 * this hasher's own: a hash read from memory confirms no guessed key.
 */
export function createKeyHasher(secret?: string): KeyHasher {
  // Held as a KeyObject: given bytes, createHmac makes one per call, which cost ten times the
  // HMAC itself.
  const hashSecret: KeyObject = createSecretKey(
    secret === undefined
      ? randomBytes(32)
      : createHmac("sha256", secret).update("voicegraph key hash").digest(),
  );
  return (authorization) =>
    createHmac("sha256", hashSecret).update(normalizedKey(authorization)).digest("base64url");
}

/**
 * `hasher` remembered per connection: a connection's requests usually carry one key, and its
 * hash is worked out once for the connection instead of once per operation. Only the last key
 * of each connection is kept, beside the connection, for as long as it lives: no key is ever a
 * map's key, and no connection can reach another's entry.
 */
export function hashesPerConnection(hasher: KeyHasher): (connection?: object) => KeyHasher {
  const last = new WeakMap<object, { authorization: string; hash: string }>();
  return (connection) => {
    if (connection === undefined) return hasher;
    return (authorization) => {
      const known = last.get(connection);
      if (known?.authorization === authorization) return known.hash;
      const hash = hasher(authorization);
      last.set(connection, { authorization, hash });
      return hash;
    };
  };
}

export interface KeyMemoryOptions {
  /** Keys remembered at most (least recently used forgotten); default 10 000. */
  capacity?: number;
  now?: () => number;
}

/** A 429's local block as the fleet shares it (fleet/key-limits.ts): no key, only its hash. */
export interface KeyBlock {
  hash: string;
  untilMs: number;
  error: { code: string; message: string; details?: UpstreamError["details"] };
}

/**
 * What the upstream told the gateway about each key, process-wide: until when it is rate-limited
 * (after a 429, every call for it is answered locally until the reset) and whether it has been
 * accepted (a key the upstream never accepted is probed with one call per operation first).
 */
/** Keys remembered by default, in each of the memory's LRU maps (docs/security.md). */
export const KEY_MEMORY_CAPACITY = 10_000;

export class KeyMemory {
  readonly #limitedUntil: LRUCache<string, { untilMs: number; error: UpstreamError }>;
  readonly #accepted: LRUCache<string, true>;
  readonly #now: () => number;
  readonly #blockListeners = new Set<(block: KeyBlock) => void>();

  constructor(options: KeyMemoryOptions = {}) {
    const max = options.capacity ?? KEY_MEMORY_CAPACITY;
    this.#limitedUntil = new LRUCache({ max });
    this.#accepted = new LRUCache({ max });
    this.#now = options.now ?? Date.now;
  }

  /** The 429 to answer locally for the key of this hash (keyHash), while its window has not reset. */
  limited(hash: string): UpstreamError | undefined {
    const entry = this.#limitedUntil.get(hash);
    if (entry === undefined) return undefined;
    const leftMs = entry.untilMs - this.#now();
    if (leftMs <= 0) {
      this.#limitedUntil.delete(hash);
      return undefined;
    }
    const { error } = entry;
    return new UpstreamError({
      status: 429,
      code: error.code,
      message: error.message,
      requestId: undefined,
      details: error.details,
      rateLimit: error.rateLimit,
      retryAfter: Math.max(1, Math.ceil(leftMs / 1000)),
      answeredLocally: true,
    });
  }

  /** Learns from an upstream answer to a call made with the key of this hash. */
  learn(hash: string, outcome: { status: number; error?: UpstreamError }): void {
    if (outcome.status === 429 && outcome.error) {
      const seconds = Math.min(
        outcome.error.retryAfter ?? DEFAULT_RETRY_AFTER_S,
        MAX_LOCAL_BLOCK_S,
      );
      const untilMs = this.#now() + seconds * 1000;
      this.#limitedUntil.set(hash, { untilMs, error: outcome.error });
      const { code, message, details } = outcome.error;
      const block = { hash, untilMs, error: { code, message, ...(details ? { details } : {}) } };
      for (const listener of this.#blockListeners) listener(block);
    } else if (outcome.status === 401) {
      this.#accepted.delete(hash);
    } else if (outcome.status < 400 || outcome.status === 404) {
      this.#accepted.set(hash, true);
    }
  }

  /** Told of every block this memory learns from an upstream 429 (the fleet publishes it). */
  onBlock(listener: (block: KeyBlock) => void): () => void {
    this.#blockListeners.add(listener);
    return () => this.#blockListeners.delete(listener);
  }

  /**
   * A block another instance learned (fleet/key-limits.ts): the key is answered locally until
   * `untilMs`, capped like a block of its own, and not told back to the listeners.
   */
  block({ hash, untilMs, error }: KeyBlock): void {
    const now = this.#now();
    const until = Math.min(untilMs, now + MAX_LOCAL_BLOCK_S * 1000);
    if (until <= now) return;
    const current = this.#limitedUntil.get(hash);
    if (current !== undefined && current.untilMs >= until) return;
    this.#limitedUntil.set(hash, {
      untilMs: until,
      error: new UpstreamError({ status: 429, ...error, retryAfter: undefined }),
    });
  }

  /** Whether the upstream has accepted the key of this hash lately. */
  accepted(hash: string): boolean {
    return this.#accepted.has(hash);
  }
}
