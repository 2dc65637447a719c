import { gatewayError } from "../errors.ts";
import { type CallCancel, followAbort, unfollowAbort } from "./call-signal.ts";
import {
  UPSTREAM_DEFAULTS,
  type UpstreamClient,
  type UpstreamRequest,
  type UpstreamResponse,
} from "./client.ts";
import { markAnsweredLocally } from "./errors.ts";
import type { KeyHasher } from "./key-memory.ts";

export interface KeyConcurrencyOptions {
  /** Upstream calls of one key in flight at once (UPSTREAM_CONNECTIONS_PER_KEY). */
  upstreamConnectionsPerKey: number;
  /** Calls of one key waiting for a place; past it, refused at once (UPSTREAM_QUEUE_PER_KEY). */
  upstreamQueuePerKey: number;
  /** The upstream pool's connections (UPSTREAM_CONNECTIONS); default the client's own, or 32. */
  upstreamConnections?: number;
}

interface KeyState {
  active: number;
  waiting: Array<() => void>;
}

/**
 * Places kept for keys with nothing in flight: a quarter of the pool, at most one key's share.
 * Keys that already have calls in flight share the rest between them.
 */
export function reservedPlaces(options: KeyConcurrencyOptions): number {
  const pool = options.upstreamConnections ?? UPSTREAM_DEFAULTS.connections;
  return Math.min(options.upstreamConnectionsPerKey, Math.floor(pool / 4));
}

/**
 * Fairness between keys over one connection pool: at most `upstreamConnectionsPerKey` calls of
 * one key in flight, and a reserve of the pool (reservedPlaces) that only a key with nothing in
 * flight may take, so keys that hang take at most the rest and one place each past it, and a
 * tenant with nothing in flight still finds a place at once. A call that cannot take a place
 * waits (up to `upstreamQueuePerKey` of one key, in order, until their operation's signal
 * aborts); any further call is refused at once with RATE_LIMITED (retryAfter 1), before it
 * reaches the upstream.
 */
export function withKeyConcurrency(
  client: UpstreamClient,
  options: KeyConcurrencyOptions,
  /** The gateway's naming of keys, for a request that does not carry its key's hash. */
  keyHash: KeyHasher,
): UpstreamClient {
  const keys = new Map<string, KeyState>();
  const pool = options.upstreamConnections ?? client.connections ?? UPSTREAM_DEFAULTS.connections;
  const shared = pool - reservedPlaces({ ...options, upstreamConnections: pool });
  let busy = 0;

  /** Whether a call of this key may take a place now. */
  const fits = (state: KeyState) =>
    state.active < options.upstreamConnectionsPerKey &&
    (state.active === 0 ? busy < pool : busy < shared);

  const take = (state: KeyState) => {
    state.active += 1;
    busy += 1;
  };

  /** Takes a place for the key: at once (undefined), or a promise of one; throws when refused. */
  function acquire(hash: string, signal: CallCancel | undefined): Promise<void> | undefined {
    let state = keys.get(hash);
    if (state === undefined) {
      state = { active: 0, waiting: [] };
      keys.set(hash, state);
    }
    if (state.waiting.length === 0 && fits(state)) {
      take(state);
      return;
    }
    if (state.waiting.length >= options.upstreamQueuePerKey) {
      forgetIfIdle(hash, state);
      throw refusal(options);
    }
    if (signal?.aborted) throw signal.reason;
    const held = state;
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const index = held.waiting.indexOf(admit);
        if (index !== -1) held.waiting.splice(index, 1);
        forgetIfIdle(hash, held);
        reject(signal?.reason);
      };
      const admit = () => {
        if (signal) unfollowAbort(signal, onAbort);
        resolve();
      };
      held.waiting.push(admit);
      if (signal) followAbort(signal, onAbort);
    });
  }

  function forgetIfIdle(hash: string, state: KeyState): void {
    if (state.active === 0 && state.waiting.length === 0) keys.delete(hash);
  }

  /** A place came free: every waiting call that fits now takes one, key by key. */
  function admitWaiting(): void {
    for (const state of keys.values()) {
      while (state.waiting.length > 0 && fits(state)) {
        take(state);
        state.waiting.shift()?.();
      }
      if (busy >= pool) return;
    }
  }

  function release(hash: string): void {
    const state = keys.get(hash);
    if (state === undefined) return;
    state.active -= 1;
    busy -= 1;
    forgetIfIdle(hash, state);
    admitWaiting();
  }

  function request<T>(req: UpstreamRequest): Promise<UpstreamResponse<T>> {
    const hash = req.keyHash ?? keyHash(req.authorization);
    let place: Promise<void> | undefined;
    try {
      // A place free at once is taken without a promise: most calls never wait.
      place = acquire(hash, req.signal);
    } catch (error) {
      return Promise.reject(error);
    }
    return place ? place.then(() => send<T>(req, hash)) : send<T>(req, hash);
  }

  /** The call in its place, given back however it ends: the call's own promise, no async frame. */
  function send<T>(req: UpstreamRequest, hash: string): Promise<UpstreamResponse<T>> {
    const keyed = req.keyHash === hash ? req : { ...req, keyHash: hash };
    return client.request<T>(keyed).then(
      (response) => {
        release(hash);
        return response;
      },
      (error: unknown) => {
        release(hash);
        throw error;
      },
    );
  }

  return { ...client, request, isReachable: client.isReachable, close: client.close };
}

function refusal(options: KeyConcurrencyOptions): Error {
  return markAnsweredLocally(
    gatewayError(
      "RATE_LIMITED",
      `This API key already has ${options.upstreamConnectionsPerKey} upstream calls in flight and ` +
        `${options.upstreamQueuePerKey} waiting; try again shortly.`,
      { retryAfter: 1, reason: "KEY_CONCURRENCY" },
    ),
  );
}
