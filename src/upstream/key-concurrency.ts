import { gatewayError } from "../errors.ts";
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from "./client.ts";
import { markAnsweredLocally } from "./errors.ts";
import { keyHash } from "./key-memory.ts";

export interface KeyConcurrencyOptions {
  /** Upstream calls of one key in flight at once (UPSTREAM_CONNECTIONS_PER_KEY). */
  upstreamConnectionsPerKey: number;
  /** Calls of one key waiting for a place; past it, refused at once (UPSTREAM_QUEUE_PER_KEY). */
  upstreamQueuePerKey: number;
}

interface KeyState {
  active: number;
  waiting: Array<() => void>;
}

/**
 * Fairness between keys over one connection pool: at most `upstreamConnectionsPerKey` calls of
 * one key in flight, up to `upstreamQueuePerKey` more waiting (in order, until their operation's signal aborts), and any
 * further call refused at once with RATE_LIMITED (retryAfter 1), before it reaches the upstream.
 * A key whose calls hang holds that many of the pool's connections, never all of them.
 */
export function withKeyConcurrency(
  client: UpstreamClient,
  options: KeyConcurrencyOptions,
): UpstreamClient {
  const keys = new Map<string, KeyState>();

  /** Takes a place for the key: at once (undefined), or a promise of one; throws when refused. */
  function acquire(hash: string, signal: AbortSignal | undefined): Promise<void> | undefined {
    let state = keys.get(hash);
    if (state === undefined) {
      state = { active: 0, waiting: [] };
      keys.set(hash, state);
    }
    if (state.active < options.upstreamConnectionsPerKey) {
      state.active += 1;
      return undefined;
    }
    if (state.waiting.length >= options.upstreamQueuePerKey) throw refusal(options);
    signal?.throwIfAborted();
    const held = state;
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const index = held.waiting.indexOf(admit);
        if (index !== -1) held.waiting.splice(index, 1);
        reject(signal?.reason);
      };
      const admit = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      held.waiting.push(admit);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  function release(hash: string): void {
    const state = keys.get(hash);
    if (state === undefined) return;
    const next = state.waiting.shift();
    // The place passes to the next waiting call as it is: `active` stays the same.
    if (next) {
      next();
      return;
    }
    state.active -= 1;
    if (state.active === 0) keys.delete(hash);
  }

  async function request<T>(req: UpstreamRequest): Promise<UpstreamResponse<T>> {
    const hash = req.keyHash ?? keyHash(req.authorization);
    // A place free at once is taken without a promise: most calls never wait.
    const place = acquire(hash, req.signal);
    if (place) await place;
    try {
      return await client.request<T>({ ...req, keyHash: hash });
    } finally {
      release(hash);
    }
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
