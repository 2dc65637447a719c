import {
  type UpstreamClient,
  type UpstreamRequest,
  type UpstreamResponse,
  wirePath,
} from "./client.ts";
import {
  isAnsweredLocally,
  markAnsweredLocally,
  UpstreamError,
  UpstreamUnavailableError,
} from "./errors.ts";
import { keyHash } from "./key-memory.ts";
import { operationOf } from "./operations.ts";
import type { CachedAnswer, ReadCacheStore } from "./read-cache.ts";
import { toUnavailableError } from "./transport-errors.ts";

/** How an operation's call was answered when it was not its own (UpstreamRequest.onShared). */
export type SharedHow = "joined" | "cached";

export interface SharingOptions {
  /** Identical GETs of one key in flight at once share one call (UPSTREAM_COALESCE). */
  coalesce: boolean;
  /** The read cache, when UPSTREAM_CACHE_TTL_S > 0. */
  cache?: { store: ReadCacheStore; ttlS: number };
}

interface Flight {
  promise: Promise<UpstreamResponse<unknown>>;
  waiters: number;
  controller: AbortController;
}

/**
 * Spends each organization's rate limit once (issue 20), around the upstream client:
 * - identical GETs of one key (by its hash) in flight at the same time share one call. The call
 *   runs on a signal of its own, aborted only when every waiter has gone: one waiter's cancel or
 *   deadline ends its own wait, not the others'. Each waiter gets its own copy of an error.
 * - with a cache, a successful single-resource read (operations.ts: `cacheable`) is kept per key
 *   hash for the TTL, and each write invalidates the reads it changes before it is answered.
 * Writes never coalesce; nothing is ever shared across keys.
 */
export function withSharing(client: UpstreamClient, options: SharingOptions): UpstreamClient {
  const flights = new Map<string, Flight>();
  const { cache } = options;

  async function request<T>(req: UpstreamRequest): Promise<UpstreamResponse<T>> {
    const hash = req.keyHash ?? keyHash(req.authorization);
    const keyed = { ...req, keyHash: hash };
    if (req.method !== "GET") return write<T>(keyed, hash);
    const cacheable = cache !== undefined && operationOf(req)?.row.cacheable === true;
    let version = 0;
    if (cacheable) {
      const found = await cache.store.read(hash, req.path).catch(() => undefined);
      if (found?.entry !== undefined && req.cache !== "bypass") {
        req.onShared?.("cached");
        const answer = JSON.parse(found.entry) as CachedAnswer;
        return {
          status: answer.status,
          body: answer.body as T,
          rateLimit: undefined,
          requestId: undefined,
        };
      }
      version = found?.version ?? 0;
    }
    const response = options.coalesce
      ? await coalesced<T>(keyed, hash)
      : await client.request<T>(keyed);
    if (cacheable && response.status >= 200 && response.status < 300) {
      const entry: CachedAnswer = { version, status: response.status, body: response.body };
      await cache.store
        .write(hash, req.path, JSON.stringify(entry), version, cache.ttlS)
        .catch(() => undefined);
    }
    return response;
  }

  /** A write, then (whatever its outcome) the invalidation of what it may have changed. */
  async function write<T>(req: UpstreamRequest, hash: string): Promise<UpstreamResponse<T>> {
    try {
      return await client.request<T>(req);
    } finally {
      const found = cache && operationOf(req);
      const paths = found
        ? (found.row.invalidates?.({ ids: found.ids, body: req.body }) ?? [])
        : [];
      if (cache && paths.length > 0)
        await cache.store.invalidate(hash, paths).catch(() => undefined);
    }
  }

  function coalesced<T>(req: UpstreamRequest, hash: string): Promise<UpstreamResponse<T>> {
    // The call exactly as sent: nothing that differs on the wire shares.
    const id = `${hash} ${req.method} ${wirePath(req.path, req.query)}`;
    let flight = flights.get(id);
    if (flight) {
      req.onShared?.("joined");
    } else {
      const controller = new AbortController();
      const started: Flight = {
        controller,
        waiters: 0,
        promise: client.request({ ...req, signal: controller.signal }),
      };
      flight = started;
      flights.set(id, started);
      const forget = () => {
        if (flights.get(id) === started) flights.delete(id);
      };
      started.promise.then(forget, forget);
    }
    return waitFor(flight, req) as Promise<UpstreamResponse<T>>;
  }

  /** One waiter's wait: its own signal ends it; the call ends only when no one waits. */
  function waitFor(flight: Flight, req: UpstreamRequest): Promise<UpstreamResponse<unknown>> {
    flight.waiters += 1;
    const signal = req.signal;
    return new Promise((resolve, reject) => {
      let settled = false;
      const leave = () => {
        if (settled) return false;
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        flight.waiters -= 1;
        return true;
      };
      const onAbort = () => {
        if (!leave()) return;
        if (flight.waiters === 0) flight.controller.abort(signal?.reason);
        const context = { request: `${req.method} ${req.path}`, callerSignal: signal };
        reject(
          toUnavailableError(signal?.reason, {
            ...context,
            deadline: new AbortController().signal,
          }),
        );
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      flight.promise.then(
        (response) => {
          if (!leave()) return;
          if (response.rateLimit) req.onRateLimit?.(response.rateLimit);
          resolve(response);
        },
        (error: unknown) => {
          if (leave()) reject(ownCopy(error));
        },
      );
    });
  }

  return { ...client, request };
}

/** Each waiter's own error object: nothing one operation does to it reaches another's. */
function ownCopy(error: unknown): unknown {
  const copy = copyOf(error);
  // A refusal answered locally (a remembered 429, a full queue) stays one in every copy.
  return copy !== error && isAnsweredLocally(error) ? markAnsweredLocally(copy as Error) : copy;
}

function copyOf(error: unknown): unknown {
  if (error instanceof UpstreamError) {
    return new UpstreamError({
      status: error.status,
      code: error.code,
      message: error.message,
      requestId: error.requestId,
      details: error.details,
      rateLimit: error.rateLimit,
      retryAfter: error.retryAfter,
    });
  }
  if (error instanceof UpstreamUnavailableError) {
    return new UpstreamUnavailableError(error.reason, error.message, { cause: error });
  }
  return error;
}
