import { randomUUID } from "node:crypto";
import { FLIGHT_RIVAL_MS, FlightListeners, type FlightMessage } from "./flights-in-air.ts";
import { isNewer, type Mark } from "./mark.ts";

export { isNewer, type Mark } from "./mark.ts";

/** What one read of a watched request answered, published once for every instance. */
export interface PollerUpdate extends Mark {
  /** The instance that read it. */
  from: string;
  /** The answer, as the poller keeps it (live/live-reads.ts: ReadAnswer). */
  answer: unknown;
}

/** What one tick of a watch gives this instance. */
export type Tick =
  /** It holds the lease: it reads now, and publishes under this mark. */
  | {
      role: "owner";
      mark: Mark;
      /** The shared store could not be asked (Redis slow or refusing): it reads for itself. */
      alone?: true;
      /** A flight's, granted here without asking the store (FlightListeners.ownAlone). */
      solo?: true;
    }
  /** Another instance reads: the newest update it published, if any (a missed message is found here). */
  | { role: "follower"; latest: PollerUpdate | undefined };

/** A write answered by some instance: the reads it may have changed, for one key's pollers. */
export interface WriteNotice {
  /** The key's hash (never the key). */
  keyHash: string;
  /** Read routes (`GET /v1/agents/{id}`) with the IDs it names, or none for every ID. */
  reads: ReadChange[];
  from: string;
}

export interface ReadChange {
  route: string;
  ids?: readonly string[];
}

/**
 * The state the pollers of a fleet share: one lease per watched read, a counter that orders its
 * updates, the newest update, and a channel per watch and one for writes. `createMemoryPollerStore`
 * keeps it in process (one instance, or the fallback while Redis is away); poller-lease.ts keeps
 * it in Redis. Both follow the same rules, which a differential test holds them to.
 */
export interface PollerStore {
  /** This process, as logs and updates name it. */
  readonly instanceId: string;
  /** Whether this store is shared with other instances right now. */
  shared(): boolean;
  /**
   * Once per interval: renews or takes the watch's lease (owner, with a fresh mark for the read
   * it is about to make), or answers with the newest update (follower).
   */
  tick(watch: string, leaseMs: number): Promise<Tick>;
  /** A mark for a read made outside the lease (a write asked for it): newer than any before. */
  mark(watch: string): Promise<Mark>;
  /**
   * Keeps and announces an update read under `mark`; false when a newer read was published
   * first (the caller then drops it: what it read is no longer the newest).
   */
  publish(watch: string, update: PollerUpdate): Promise<boolean>;
  /** The newest update of the watch. */
  latest(watch: string): Promise<PollerUpdate | undefined>;
  /**
   * Hears the watch's updates from other instances; resolves once the store has confirmed the
   * subscription (a follower relies on it only then).
   */
  listen(watch: string, onUpdate: (update: PollerUpdate) => void): Promise<void>;
  /** Whether `listen` is confirmed right now (false again while a connection is re-made). */
  listening(watch: string): boolean;
  /** This instance no longer watches it: it stops hearing, and its lease (if held) goes. */
  leave(watch: string): void;
  /** Tells every instance that a write was answered (its own listeners included). */
  announce(notice: Omit<WriteNotice, "from">): Promise<void>;
  onWrite(listener: (notice: WriteNotice) => void): () => void;
  /**
   * A flight (fleet/flights.ts): a watch with a lifetime of one call. `tick` with the counter
   * kept only `leaseMs`, so nothing of it outlives the flight by more. A flight contended lately
   * (its lease refused to an attempt within FLIGHT_RIVAL_MS) is announced on the store's one
   * flights channel in the step that grants its lease; one that is not wakes no other instance.
   * A follower's `latest` is for its mark: the Redis store keeps no flight's answer, so its
   * answer is empty there. An owner whose lease another instance took last counts it a rival.
   * A flight flown alone whose last grant, a few seconds ago, had no rival is granted without a
   * word to the store (FlightListeners.ownAlone), and lands without one.
   */
  flight(name: string, leaseMs: number): Promise<Tick>;
  /**
   * Publishes a flight's answer once, on the store's one flights channel, if it was announced or
   * its lease refused to an attempt meanwhile (only they wait for it); and ends its lease. The
   * answer's text is asked for only if some read, here or elsewhere, hears it.
   */
  land(name: string, mark: Omit<PollerUpdate, "answer">, answer: () => string): Promise<void>;
  /**
   * The mark of `name`'s flight if an attempt announced it (another instance's, or an earlier
   * one of this instance) and its answer was not heard yet (flights-in-air.ts): a read waits
   * for it without asking the store.
   */
  announced(name: string): Mark | undefined;
  /**
   * Whether this instance alone flew `name` lately: its flight landed here lately, and no other
   * instance's flight of it was heard, nor its lease refused to this one, nor another's refused
   * read awaited this one's answer, for FLIGHT_RIVAL_MS.
   */
  flownAlone(name: string): boolean;
  /** A flight waited on in vain (a lost answer, a dead owner): the next read asks the store. */
  forgetFlight(name: string): void;
  /**
   * Hears a flight's answers from other instances, without a subscription of its own: the one
   * flights channel is subscribed with the store's connection. Stops with the returned function.
   */
  hearFlight(name: string, onUpdate: (update: PollerUpdate) => void): () => void;
  /** Whether the flights channel is confirmed right now (a waiter relies on it only then). */
  hearingFlights(): boolean;
  close(): void;
}

/** A lease outlives two poll intervals by this much: a tick late by less keeps its owner. */
export const LEASE_MARGIN_MS = 250;

/**
 * How long a watch's counter and newest update outlive its last tick: ten intervals. A quiet
 * spell longer than that starts a new epoch, which the ordering rule takes as newer.
 */
export function keepMsOf(intervalMs: number): number {
  return Math.max(1_000, 10 * intervalMs);
}

/** An epoch from a clock reading in microseconds: fixed width, so strings compare as numbers. */
export function epochOf(micros: bigint | number): string {
  return String(micros).padStart(20, "0");
}

interface MemoryWatch {
  lease?: { holder: string; until: number };
  epoch?: string;
  seq: number;
  /** When the counter (and the newest update) expire. */
  keepUntil: number;
  published?: Mark;
  latest?: PollerUpdate;
  /** A flight's: announced as its lease was granted, or its lease refused since. */
  heard?: boolean;
}

/**
 * The shared state of several in-process instances: the store of a gateway without REDIS_URL,
 * and the model that property tests run fleets against. `restart()` loses everything, as a
 * Redis without persistence does; `deliver` decides how a published message reaches each
 * listener (at once by default; a test may delay or drop it).
 */
export class MemoryPollerServer {
  readonly #watches = new Map<string, MemoryWatch>();
  readonly #listeners = new Map<string, Map<string, (update: PollerUpdate) => void>>();
  readonly #writeListeners = new Set<(notice: WriteNotice) => void>();
  readonly #flightListeners = new Map<string, (message: FlightMessage) => void>();
  /**
   * Per flight, as the Redis keys beside its counter: its last owner, and a refusal lately. At
   * most FLIGHT_MEMORY of each, the oldest going first (a Redis store's stand-in while Redis is
   * away meets many names).
   */
  readonly #lastOwner = new Map<string, { instance: string; until: number; solo: boolean }>();
  readonly #contended = new Map<string, { until: number }>();
  #lastMicros = 0n;
  readonly #now: () => number;
  deliver: (send: () => void) => void = (send) => send();

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** Loses every lease, counter and update, as a Redis that restarts empty does. */
  restart(): void {
    this.#watches.clear();
    this.#lastOwner.clear();
    this.#contended.clear();
  }

  #watch(name: string): MemoryWatch {
    const now = this.#now();
    let watch = this.#watches.get(name);
    if (watch && watch.keepUntil <= now) {
      watch = {
        ...(watch.lease && watch.lease.until > now ? { lease: watch.lease } : {}),
        seq: 0,
        keepUntil: 0,
      };
      this.#watches.set(name, watch);
    }
    if (!watch) {
      watch = { seq: 0, keepUntil: 0 };
      this.#watches.set(name, watch);
    }
    return watch;
  }

  /** A strictly increasing clock reading, as the Redis scripts take from TIME. */
  #micros(): bigint {
    const now = BigInt(Math.floor(this.#now() * 1000));
    this.#lastMicros = now > this.#lastMicros ? now : this.#lastMicros + 1n;
    return this.#lastMicros;
  }

  #next(watch: MemoryWatch, keepMs: number): Mark {
    if (watch.epoch === undefined) {
      watch.epoch = epochOf(this.#micros());
      watch.seq = 0;
    }
    watch.seq += 1;
    watch.keepUntil = this.#now() + keepMs;
    return { epoch: watch.epoch, seq: watch.seq };
  }

  tick(name: string, instanceId: string, leaseMs: number, keepMs: number): Tick {
    const watch = this.#watch(name);
    const now = this.#now();
    const lease = watch.lease;
    if (!lease || lease.until <= now || lease.holder === instanceId) {
      watch.lease = { holder: instanceId, until: now + leaseMs };
      return { role: "owner", mark: this.#next(watch, keepMs) };
    }
    return { role: "follower", latest: watch.latest };
  }

  mark(name: string, keepMs: number): Mark {
    return this.#next(this.#watch(name), keepMs);
  }

  publish(name: string, update: PollerUpdate, keepMs: number): boolean {
    const watch = this.#watch(name);
    // A mark of an epoch the store no longer holds (it restarted since) is not published.
    if (watch.epoch !== update.epoch) return false;
    if (watch.published && !isNewer(update, watch.published)) return false;
    watch.published = { epoch: update.epoch, seq: update.seq };
    watch.latest = update;
    watch.keepUntil = this.#now() + keepMs;
    for (const [from, listener] of this.#listeners.get(name) ?? []) {
      if (from !== update.from) this.deliver(() => listener(update));
    }
    return true;
  }

  latest(name: string): PollerUpdate | undefined {
    return this.#watch(name).latest;
  }

  listen(name: string, instanceId: string, listener: (update: PollerUpdate) => void): void {
    let listeners = this.#listeners.get(name);
    if (!listeners) {
      listeners = new Map();
      this.#listeners.set(name, listeners);
    }
    listeners.set(instanceId, listener);
  }

  leave(name: string, instanceId: string): void {
    this.unlisten(name, instanceId);
    this.release(name, instanceId);
  }

  /** Stops an instance's hearing of a watch, whatever lease it holds. */
  unlisten(name: string, instanceId: string): void {
    const listeners = this.#listeners.get(name);
    listeners?.delete(instanceId);
    if (listeners?.size === 0) this.#listeners.delete(name);
  }

  /** Gives up a lease the instance holds, as the release script does. */
  release(name: string, instanceId: string): void {
    const watch = this.#watches.get(name);
    if (watch?.lease?.holder === instanceId) delete watch.lease;
  }

  announce(notice: WriteNotice): void {
    for (const listener of this.#writeListeners) this.deliver(() => listener(notice));
  }

  /**
   * A flight's tick, as the flight script's: a refusal marks the flight contended for `rivalMs`
   * and its answer as awaited; a lease granted goes out to every instance at once if the flight
   * is contended, and says whether it was (announced) and whether another instance took the
   * last one (rival); a grant after another instance's solo one (neither) says so to every
   * instance (that one may fly it without the store).
   */
  flight(
    name: string,
    holder: string,
    instance: string,
    leaseMs: number,
    rivalMs: number,
  ): Tick & { rival?: true; announced?: true } {
    const tick = this.tick(name, holder, leaseMs, leaseMs);
    const watch = this.#watch(name);
    const now = this.#now();
    if (tick.role === "follower") {
      watch.heard = true;
      remember(this.#contended, name, { until: now + rivalMs });
      return tick;
    }
    const last = this.#lastOwner.get(name);
    const lastNow = last && last.until > now ? last : undefined;
    watch.heard = (this.#contended.get(name)?.until ?? 0) > now;
    const granted: Tick & { rival?: true; announced?: true } = tick;
    if (lastNow && lastNow.instance !== instance) granted.rival = true;
    if (watch.heard) {
      this.#flightsOut({ flight: name, started: { ...tick.mark, from: holder, leaseMs } });
      granted.announced = true;
    } else if (granted.rival && lastNow?.solo) {
      this.#flightsOut({ flight: name, rival: instance });
    }
    const solo = !granted.rival && !granted.announced;
    remember(this.#lastOwner, name, { instance, until: now + rivalMs, solo });
    return granted;
  }

  /**
   * A flight's answer, kept by the ordering rule, out to every instance if it was announced or
   * awaited (then true), and its lease gone.
   */
  land(name: string, update: PollerUpdate, holder: string | undefined): boolean {
    const heard = this.#watch(name).heard === true;
    const out = this.publish(name, update, 1) && heard;
    if (out) this.#flightsOut({ ...update, flight: name });
    if (holder !== undefined) this.release(name, holder);
    return out;
  }

  /** Hears the one flights channel (each instance once). */
  onFlights(instanceId: string, listener: (message: FlightMessage) => void): () => void {
    this.#flightListeners.set(instanceId, listener);
    return () => this.#flightListeners.delete(instanceId);
  }

  #flightsOut(message: FlightMessage): void {
    for (const listener of this.#flightListeners.values()) this.deliver(() => listener(message));
  }

  onWrite(listener: (notice: WriteNotice) => void): () => void {
    this.#writeListeners.add(listener);
    return () => this.#writeListeners.delete(listener);
  }
}

const FLIGHT_MEMORY = 10_000;

/** Sets `name` as the newest entry of `map`, forgetting the oldest past FLIGHT_MEMORY. */
function remember<T>(map: Map<string, T>, name: string, value: T): void {
  map.delete(name);
  map.set(name, value);
  if (map.size > FLIGHT_MEMORY) map.delete(map.keys().next().value as string);
}

/**
 * One instance's view of a MemoryPollerServer. Without REDIS_URL each gateway has a server of its
 * own, so it always holds every lease.
 */
export function createMemoryPollerStore(options: {
  intervalMs: number;
  server?: MemoryPollerServer;
  instanceId?: string;
  /** How long a flight of this instance's alone is flown without the server (FlightListeners). */
  flightSoloMs?: number;
}): PollerStore {
  const server = options.server ?? new MemoryPollerServer();
  const instanceId = options.instanceId ?? randomUUID();
  const keepMs = keepMsOf(options.intervalMs);
  const listened = new Set<string>();
  const flights = new FlightListeners(instanceId, FLIGHT_RIVAL_MS, options.flightSoloMs);
  const stops = new Set<() => void>([
    server.onFlights(instanceId, (message) => flights.heard(message)),
  ]);
  return {
    instanceId,
    shared: () => options.server !== undefined,
    tick: async (watch, leaseMs) => server.tick(watch, instanceId, leaseMs, keepMs),
    mark: async (watch) => server.mark(watch, keepMs),
    publish: async (watch, update) => server.publish(watch, update, keepMs),
    latest: async (watch) => server.latest(watch),
    async listen(watch, onUpdate) {
      server.listen(watch, instanceId, onUpdate);
      listened.add(watch);
    },
    listening: (watch) => listened.has(watch),
    leave(watch) {
      listened.delete(watch);
      server.leave(watch, instanceId);
    },
    announce: async (notice) => server.announce({ ...notice, from: instanceId }),
    async flight(name, leaseMs) {
      const mark = flights.ownAlone(name, leaseMs);
      if (mark) return { role: "owner", mark, solo: true };
      const holder = flights.attempt();
      const { rival, announced, ...tick } = server.flight(
        name,
        holder,
        instanceId,
        leaseMs,
        flights.rivalMs,
      );
      if (tick.role === "owner") {
        flights.owned(
          name,
          holder,
          { ...tick.mark, leaseMs },
          { announced: announced === true, rival: rival === true },
        );
      } else flights.refused(name);
      return tick as Tick;
    },
    land: async (name, mark, answer) => {
      const update = { ...mark, answer: answer() };
      const landing = flights.landing(name, mark, () => update.answer);
      // Granted without the server: nothing of it is there.
      if (landing?.solo) return;
      // Awaited by another instance's refused read: not this instance's alone.
      if (server.land(name, update, landing?.holder)) flights.refused(name);
    },
    hearFlight: (name, onUpdate) => flights.hear(name, onUpdate),
    announced: (name) => flights.inAir.find(name),
    flownAlone: (name) => flights.flownAlone(name),
    forgetFlight: (name) => flights.inAir.forget(name),
    hearingFlights: () => true,
    onWrite(listener) {
      const stop = server.onWrite(listener);
      stops.add(stop);
      return () => {
        stops.delete(stop);
        stop();
      };
    },
    close() {
      for (const watch of listened) server.leave(watch, instanceId);
      listened.clear();
      for (const stop of stops) stop();
      stops.clear();
      flights.clear();
    },
  };
}
