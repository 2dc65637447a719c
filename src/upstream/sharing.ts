import { LRUCache } from "lru-cache";
import { CallSignal, followAbort, unfollowAbort } from "./call-signal.ts";
import {
  type UpstreamClient,
  type UpstreamRequest,
  type UpstreamResponse,
  wirePath,
} from "./client.ts";
import { isAnsweredLocally, UpstreamError, UpstreamUnavailableError } from "./errors.ts";
import { type FleetFlights, flightName } from "./fleet-flights.ts";
import type { KeyHasher } from "./key-memory.ts";
import { operationOf } from "./operations.ts";
import type { CachedAnswer, ReadCacheStore } from "./read-cache.ts";
import { toUnavailableError } from "./transport-errors.ts";
import type { FleetWriteVersion } from "./write-version.ts";

/** How an operation's call was answered when it was not its own: a live poller's read included. */
export type SharedHow = "joined" | "cached" | "polled";

export interface SharingOptions {
  /** Identical GETs of one key in flight at once share one call (UPSTREAM_COALESCE). */
  coalesce: boolean;
  /** The read cache, when UPSTREAM_CACHE_TTL_S > 0. */
  cache?: { store: ReadCacheStore; ttlS: number };
  /**
   * A fleet's write version (REDIS_URL), whether or not the cache is on: every accepted write
   * bumps it before it is answered, and a read joins a call in flight only if it has not moved
   * since that call began.
   */
  fleet?: FleetWriteVersion;
  /**
   * One flight per read across the fleet (UPSTREAM_FLEET_FLIGHTS, with `fleet`): a call this
   * instance would begin is first offered to the fleet, named with the write version.
   */
  flights?: FleetFlights;
  /** The gateway's naming of keys, for a request that does not carry its key's hash. */
  keyHash: KeyHasher;
}

interface Flight {
  promise: Promise<UpstreamResponse<unknown>>;
  waiters: number;
  /** The call's own signal: aborted when its last waiter leaves. */
  signal: CallSignal;
  /** The read cache's versions read before the call went upstream (undefined: not cached). */
  version: string | undefined;
  /** The instance's view of the fleet's write version when the call began (fleet only). */
  fleetView: string | undefined;
  /** A write on this instance was answered since the call began: no later read joins it. */
  detached: boolean;
}

/** Where a read goes: its key's hash, the call as sent, and the cache's versions read before it. */
interface Target {
  hash: string;
  wire: string;
  version: string | undefined;
}

/** A waiter that leaves was not timed out: its own signal ended its wait. */
const NOT_TIMED_OUT = Object.freeze({ aborted: false });

/** Refusals remembered per instance: a key refused lately reads around the cache. */
const REFUSED_CAPACITY = 10_000;

/**
 * Spends each organization's rate limit once, around the upstream client, and never answers
 * older than the reader's own answered write:
 * - identical GETs of one key (by its hash; the same call on the wire) in flight at the same
 *   time share one call. The call runs on a signal of its own, aborted only when every waiter has
 *   gone: one waiter's cancel or deadline ends its own wait, not the others'. Each waiter gets
 *   its own copy of an error. Every write, once answered, detaches every call in flight on this
 *   instance, so a read that starts after it makes a call of its own. In a fleet, every accepted
 *   write also bumps the fleet's write version before it is answered, and a read joins a call only
 *   after one look at it shows no write since that call began (on any instance): otherwise, or
 *   when Redis cannot tell within its command timeout, it makes a call of its own.
 * - with a cache, a successful single-resource read (operations.ts: `cacheable`) is kept per key
 *   hash for the TTL, and only while the versions it was read at still hold (read-cache.ts):
 *   each accepted write invalidates the resources it changes, for every key, before it is
 *   answered; a 401 or 403 drops the key's entries, and its reads go around the cache until a
 *   call made after the refusal succeeds.
 * - in a fleet with flights (fleet-flights.ts), a call this instance begins is first the fleet's:
 *   another instance's flight of it, named with the write version read now, answers it if any.
 * Writes never coalesce; nothing is ever shared across keys.
 */
export function withSharing(client: UpstreamClient, options: SharingOptions): UpstreamClient {
  const flights = new Map<string, Flight>();
  const { cache, fleet } = options;
  // A logical clock: when each key was last refused, and when each call started.
  let clock = 0;
  const refusedAt = new LRUCache<string, number>({ max: REFUSED_CAPACITY });

  function request<T>(req: UpstreamRequest): Promise<UpstreamResponse<T>> {
    try {
      return route<T>(req);
    } catch (error) {
      // A failure is the call's promise's, as it was when every step here was async.
      return Promise.reject(error);
    }
  }

  function route<T>(req: UpstreamRequest): Promise<UpstreamResponse<T>> {
    const hash = req.keyHash ?? options.keyHash(req.authorization);
    const keyed = req.keyHash === hash ? req : { ...req, keyHash: hash };
    if (req.method !== "GET") return write<T>(keyed, hash);
    const wire = wirePath(req.path, req.query);
    const cacheable =
      cache !== undefined && operationOf(req)?.row.cacheable === true && !refusedAt.has(hash);
    // Without the cache, the call's own promise: no async frame of its own around every read.
    if (!cacheable) return shared<T>(keyed, { hash, wire, version: undefined });
    return throughCache<T>(keyed, hash, wire);
  }

  /** A cacheable read: answered from the cache, or a call kept at the versions read before it. */
  async function throughCache<T>(
    req: UpstreamRequest,
    hash: string,
    wire: string,
  ): Promise<UpstreamResponse<T>> {
    const found = await quietStep(cache?.store.read(hash, req.path, wire));
    if (found?.entry !== undefined && req.cache !== "bypass") {
      client.learnKey?.(hash, { status: 200 });
      req.onShared?.("cached");
      const answer = JSON.parse(found.entry) as CachedAnswer;
      return {
        status: answer.status,
        body: answer.body as T,
        rateLimit: undefined,
        requestId: undefined,
      };
    }
    return shared<T>(req, { hash, wire, version: found?.version });
  }

  function shared<T>(req: UpstreamRequest, target: Target): Promise<UpstreamResponse<T>> {
    return (options.coalesce ? coalesced(req, target) : call(req, target)) as Promise<
      UpstreamResponse<T>
    >;
  }

  /**
   * One real call: a refusal of the key is remembered (and its entries dropped), a success
   * clears a refusal older than the call, and a cacheable answer is kept at the versions read
   * before the call.
   */
  async function call(
    req: UpstreamRequest,
    target: Target,
    /** Told when the call is over, before its promise settles (a flight's end). */
    settled?: () => void,
  ): Promise<UpstreamResponse<unknown>> {
    const { hash } = target;
    const startedAt = ++clock;
    try {
      let response: UpstreamResponse<unknown>;
      try {
        response = await client.request(req);
      } catch (error) {
        if (error instanceof UpstreamError && (error.status === 401 || error.status === 403)) {
          await refuse(hash);
        }
        throw error;
      }
      const ok = response.status >= 200 && response.status < 300;
      const refused = refusedAt.get(hash);
      if (ok && refused !== undefined && refused < startedAt) refusedAt.delete(hash);
      if (cache && ok && target.version !== undefined && !refusedAt.has(hash)) {
        const entry: CachedAnswer = {
          version: target.version,
          status: response.status,
          body: response.body,
        };
        await quietStep(
          cache.store.write(
            hash,
            req.path,
            target.wire,
            JSON.stringify(entry),
            target.version,
            cache.ttlS,
          ),
        );
      }
      return response;
    } finally {
      settled?.();
    }
  }

  async function refuse(hash: string): Promise<void> {
    refusedAt.set(hash, ++clock);
    if (cache) await quietStep(cache.store.evictKey(hash));
  }

  /**
   * A write, then the detaching of every read in flight (whatever its outcome: it may have
   * changed anything a list shows), and the invalidation of what it changed unless the upstream
   * refused it (a 4xx, or answered here): a refused write changed nothing.
   */
  async function write<T>(req: UpstreamRequest, hash: string): Promise<UpstreamResponse<T>> {
    let accepted = true;
    try {
      return (await call(req, { hash, wire: "", version: undefined })) as UpstreamResponse<T>;
    } catch (error) {
      const status = error instanceof UpstreamError ? error.status : undefined;
      if (isAnsweredLocally(error) || (status !== undefined && status >= 400 && status < 500)) {
        accepted = false;
      }
      throw error;
    } finally {
      for (const flight of flights.values()) flight.detached = true;
      flights.clear();
      const found = cache && accepted ? operationOf(req) : undefined;
      const paths = found
        ? (found.row.invalidates?.({ ids: found.ids, body: req.body }) ?? [])
        : [];
      await Promise.all([
        cache && paths.length > 0 ? quietStep(cache.store.invalidate(paths)) : null,
        fleet && accepted ? quietStep(fleet.bump()) : null,
      ]);
    }
  }

  function coalesced(req: UpstreamRequest, target: Target): Promise<UpstreamResponse<unknown>> {
    // The call exactly as sent: nothing that differs on the wire shares; and a call read at
    // other cache versions (another instance's write came between) is not joined either.
    const id = `${target.hash} ${req.method} ${target.wire}`;
    const flight = flights.get(id);
    if (!joinable(flight, target)) return begun(id, req, target);
    if (fleet) return joinedInFleet(id, req, target);
    req.onShared?.("joined");
    return waitFor(flight, req);
  }

  /**
   * In a fleet, only a join looks: a write answered on another instance since the call began (or
   * a Redis that cannot tell now) makes this read's call its own. The call goes on meanwhile,
   * and one that ended during the look is joined as well: its answer is as fresh.
   */
  async function joinedInFleet(
    id: string,
    req: UpstreamRequest,
    target: Target,
  ): Promise<UpstreamResponse<unknown>> {
    const seen = flights.get(id);
    const now = await fleet?.current();
    const flight = [seen, flights.get(id)].find(
      (found) =>
        joinable(found, target) && !found.detached && now !== undefined && found.fleetView === now,
    );
    if (flight === undefined) return begun(id, req, target);
    req.onShared?.("joined");
    return waitFor(flight, req);
  }

  /**
   * A call in flight a read may join: read at the same cache versions as the read, and not
   * aborted (its waiters all left: it ends in an abort no later read asked for).
   */
  function joinable(flight: Flight | undefined, target: Target): flight is Flight {
    return flight !== undefined && flight.version === target.version && !flight.signal.aborted;
  }

  /**
   * A call of the read's own, waited for; none for a caller already gone (it left while a look at
   * Redis or the cache was out): a call begun for no one would be aborted at once, unheard.
   */
  function begun(
    id: string,
    req: UpstreamRequest,
    target: Target,
  ): Promise<UpstreamResponse<unknown>> {
    if (req.signal?.aborted) return Promise.reject(leftEarly(req));
    return waitFor(begin(id, req, target), req);
  }

  /** A call of its own, in flight for others to join until it is answered. */
  function begin(id: string, req: UpstreamRequest, target: Target): Flight {
    const signal = new CallSignal();
    const started: Flight = {
      signal,
      waiters: 0,
      version: target.version,
      fleetView: fleet?.view(),
      detached: false,
      promise: flown({ ...req, signal }, target, () => {
        if (flights.get(id) === started) flights.delete(id);
      }),
    };
    // Each waiter hears the outcome on its own (waitFor); a call whose waiters all left ends in
    // the abort they caused, which is the flight's alone to hear.
    started.promise.catch(() => undefined);
    flights.set(id, started);
    return started;
  }

  /**
   * A call of its own, or the fleet's one flight of it (fleet/flights.ts): named by the write
   * version read now, so a read that starts after a write anywhere never joins an older flight.
   */
  function flown(
    req: UpstreamRequest & { signal: CallSignal },
    target: Target,
    settled: () => void,
  ): Promise<UpstreamResponse<unknown>> {
    const lane = options.flights;
    if (lane === undefined || fleet === undefined || req.leased) return call(req, target, settled);
    return flownInFleet(lane, fleet, req, target).finally(settled);
  }

  function flownInFleet(
    lane: FleetFlights,
    version: FleetWriteVersion,
    req: UpstreamRequest & { signal: CallSignal },
    target: Target,
  ): Promise<UpstreamResponse<unknown>> {
    const sent = `${req.method} ${target.wire}`;
    return lane.fly(
      (token) => flightName(target.hash, sent, target.version, token),
      { view: version.view(), now: () => version.current() },
      () => call(req, target),
      req.signal,
      (outcome) => {
        // Another instance's call: joined, as a local one is, and it teaches this instance
        // what its own call would have (the key's acceptance, a refusal).
        req.onShared?.("joined");
        client.learnKey?.(target.hash, outcome);
        if (outcome.status === 401 || outcome.status === 403) void refuse(target.hash);
      },
    );
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
        if (signal) unfollowAbort(signal, onAbort);
        flight.waiters -= 1;
        return true;
      };
      const onAbort = () => {
        if (!leave()) return;
        if (flight.waiters === 0) flight.signal.abort(signal?.reason);
        reject(leftEarly(req));
      };
      if (signal?.aborted) return onAbort();
      if (signal) followAbort(signal, onAbort);
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

/** The error of a waiter whose own signal ended its wait. */
function leftEarly(req: UpstreamRequest): unknown {
  return toUnavailableError(req.signal?.reason, {
    request: `${req.method} ${req.path}`,
    callerSignal: req.signal,
    deadline: NOT_TIMED_OUT,
  });
}

/** Each waiter's own error object: nothing one operation does to it reaches another's. */
function ownCopy(error: unknown): unknown {
  if (error instanceof UpstreamError) {
    return new UpstreamError(error.facts());
  }
  if (error instanceof UpstreamUnavailableError) {
    return new UpstreamUnavailableError(error.reason, error.message, { cause: error });
  }
  return error;
}

/**
 * A store's step that may not fail the read or write it serves: the fleet's stores count, log and
 * fall back on a refusal themselves (FleetRedis.attempt, fleet/redis-failures.ts), and the
 * in-process ones do not reject, so what reaches here is already reported.
 */
function quietStep<T>(step: Promise<T> | undefined): Promise<T | undefined> {
  return step === undefined
    ? Promise.resolve(undefined)
    : step.then(
        (value) => value,
        () => undefined,
      );
}
