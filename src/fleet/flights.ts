import { Counter, Gauge, type Registry } from "prom-client";
import {
  abortError,
  type CallCancel,
  followAbort,
  unfollowAbort,
} from "../upstream/call-signal.ts";
import type { UpstreamResponse } from "../upstream/client.ts";
import { UpstreamError } from "../upstream/errors.ts";
import type { FleetFlights, FlightVersion } from "../upstream/fleet-flights.ts";
import { isNewer, type Mark, type PollerStore, type PollerUpdate } from "./poller-store.ts";

/** The longest answer a flight publishes: a larger one is each waiter's own call. */
export const FLIGHT_MAX_BYTES = 256 * 1024;
/** The shortest wait for a flight's answer, however fast the upstream has been. */
export const FLIGHT_MIN_WAIT_MS = 50;

/** How a flight ended for this instance: its own call, an answer heard, or a fallback's reason. */
export type FlightOutcome =
  | "owned"
  | "joined"
  /** Called first, as an uncontended flight does, and another instance's lease came before. */
  | "raced"
  /** Nothing heard within the bound (a dead owner, a lost message, a slow Redis). */
  | "timeout"
  /** Redis is away, or the flights channel is not confirmed: no one could be heard. */
  | "unshared"
  /** The owner's answer was larger than FLIGHT_MAX_BYTES. */
  | "too_large"
  /** The owner's call ended without an answer to share (a timeout, a reset, its callers gone). */
  | "failed";

/** A waiter's flight named at a write version that no longer held: sought again under the new one. */
const STALE = Symbol("stale");

/** The outcomes that are a read's own call for want of a flight (every one but owned, joined, raced). */
export const FLIGHT_FALLBACKS: readonly FlightOutcome[] = [
  "timeout",
  "unshared",
  "too_large",
  "failed",
];

/** What a flight publishes: the upstream's answer, its error, or why there is none to share. */
type Landed =
  | { ok: Pick<UpstreamResponse<unknown>, "status" | "body" | "rateLimit" | "requestId"> }
  | { error: ConstructorParameters<typeof UpstreamError>[0] }
  | { none: "too_large" | "failed" };

export interface FleetFlightsOptions {
  /** The longest a waiter waits (UPSTREAM_FLEET_FLIGHT_WAIT_MS), and the wait before any call was timed. */
  maxWaitMs: number;
  registry: Registry;
}

/** Fleet flights on top of the pollers' store, with their outcomes counted for /metrics and /readyz. */
export interface FleetFlightLane extends FleetFlights {
  /** Fallbacks since start, by reason (only those that happened). */
  fallbacks(): Partial<Record<FlightOutcome, number>>;
}

/**
 * A flight is the pollers' job with a lifetime of one call, on the same store: the lease (SET NX
 * PX, in the store's tick, announced on the store's one flights channel when granted) picks the
 * one instance that calls, the counter's epoch and sequence order its answer with the one
 * ordering rule, and the answer goes out once on that channel. An instance that heard a flight
 * announced waits for it without asking the store. A flight only this instance flew lately is
 * called at once beside its lease (callFirst): a read with no rival waits for no round trip;
 * for a few seconds after a grant that found no rival, it takes no lease at all (the store
 * grants it here, FlightListeners.ownAlone), so such a read costs Redis nothing.
 * The lease lasts `maxWaitMs` (or until the answer is published). A waiter waits at most 4× the
 * upstream's observed latency (an average over the calls and waits of this instance) plus
 * 50 ms, between FLIGHT_MIN_WAIT_MS and `maxWaitMs`, then calls itself.
 */
export function createFleetFlights(
  store: PollerStore,
  options: FleetFlightsOptions,
): FleetFlightLane {
  let observedMs: number | undefined;
  const counts = new Map<FlightOutcome, number>();
  const outcomes = new Counter({
    name: "voicegraph_fleet_flights_total",
    help: "Upstream reads by how their fleet-wide flight went: owned (this instance called), joined (another's answer), raced (called first, and another instance's lease came before), or the reason of an own call (timeout, unshared, too_large, failed).",
    labelNames: ["outcome"],
    registers: [options.registry],
  });
  let waiting = 0;
  new Gauge({
    name: "voicegraph_fleet_flights_waiting",
    help: "Flights this instance waits on now for another instance's answer.",
    registers: [options.registry],
    collect() {
      this.set(waiting);
    },
  });
  const count = (outcome: FlightOutcome) => {
    counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
    outcomes.inc({ outcome });
  };
  const observe = (ms: number) => {
    observedMs = observedMs === undefined ? ms : 0.8 * observedMs + 0.2 * ms;
  };
  const bound = () =>
    observedMs === undefined
      ? options.maxWaitMs
      : Math.min(options.maxWaitMs, Math.max(FLIGHT_MIN_WAIT_MS, 4 * observedMs + 50));

  async function timed<T>(call: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await call();
    } finally {
      observe(performance.now() - started);
    }
  }

  async function own(
    name: string,
    update: Omit<PollerUpdate, "answer">,
    calling: Promise<UpstreamResponse<unknown>>,
  ): Promise<UpstreamResponse<unknown>> {
    count("owned");
    // Its text is written only if some read hears it (most flights are flown alone), from the
    // body as its readers got it, which they share and never change. Never awaited by the
    // caller, never rejected: the store reports its own failures.
    const land = (landed: Landed) => {
      let text: string | undefined;
      const answer = () => (text ??= landedText(landed));
      store.land(name, update, answer).catch(() => undefined);
    };
    try {
      const response = await calling;
      const { status, body, rateLimit, requestId } = response;
      land({ ok: { status, body, rateLimit, requestId } });
      return response;
    } catch (error) {
      land(
        error instanceof UpstreamError && !error.answeredLocally
          ? { error: error.facts() }
          : { none: "failed" },
      );
      throw error;
    }
  }

  async function fallBack(
    outcome: FlightOutcome,
    call: () => Promise<UpstreamResponse<unknown>>,
  ): Promise<UpstreamResponse<unknown>> {
    count(outcome);
    return timed(call);
  }

  async function fly(
    name: (writeVersion: string) => string,
    version: FlightVersion,
    call: () => Promise<UpstreamResponse<unknown>>,
    signal: CallCancel,
    learn: (outcome: { status: number; error?: UpstreamError }) => void,
  ): Promise<UpstreamResponse<unknown>> {
    if (!store.shared() || !store.hearingFlights()) return fallBack("unshared", call);
    const { view } = version;
    const named = view === undefined ? undefined : name(view);
    // A read flown alone looks at no write version: its call begins after the read did, so it
    // holds every write answered before, whatever the version.
    if (named !== undefined && store.flownAlone(named)) return callFirst(named, call);
    const looked = version.now();
    if (named !== undefined) {
      // Most reads come with no write since this instance's last look: the flight is sought
      // under the view while the look that confirms it is out, one round trip for both.
      const confirmed = looked.then(
        (now) => now === view,
        () => false,
      );
      const first = await attempt(named, call, signal, learn, confirmed);
      if (first !== STALE) return first;
    }
    const now = await looked;
    // Every reader left while the version was read: no lease taken, no call begun, for no one.
    if (signal.aborted) throw signal.reason ?? abortError();
    if (now === undefined) return fallBack("unshared", call);
    return (await attempt(name(now), call, signal, learn, undefined)) as UpstreamResponse<unknown>;
  }

  /**
   * A flight this instance alone flew lately (PollerStore.flownAlone): the call begins at once,
   * beside the lease, so that a read no other instance makes waits for no round trip. With the
   * lease (or a grant made here without the store), its answer goes out as any owner's; without
   * it (another instance's came first), it is this read's own, and the refusal makes the flight
   * a shared one for a while.
   */
  async function callFirst(
    name: string,
    call: () => Promise<UpstreamResponse<unknown>>,
  ): Promise<UpstreamResponse<unknown>> {
    const calling = timed(call);
    // Its outcome is this read's, returned below; until then it must not go unheard.
    calling.catch(() => undefined);
    const tick = await store.flight(name, options.maxWaitMs);
    if (tick.role !== "owner") {
      count("raced");
      return calling;
    }
    if (tick.alone) {
      count("unshared");
      return calling;
    }
    return own(name, { ...tick.mark, from: store.instanceId }, calling);
  }

  /**
   * The flight `name`: its owner calls at once (a call begun now holds every write answered
   * before the read began); a waiter first needs `confirmed` (the name's write version still
   * held after the read began), and gives the flight up as STALE when it did not.
   */
  async function attempt(
    name: string,
    call: () => Promise<UpstreamResponse<unknown>>,
    signal: CallCancel,
    learn: (outcome: { status: number; error?: UpstreamError }) => void,
    confirmed: Promise<boolean> | undefined,
  ): Promise<UpstreamResponse<unknown> | typeof STALE> {
    // Heard from before the tick: an answer may come before its reply does.
    const heard: PollerUpdate[] = [];
    let hear = (update: PollerUpdate) => void heard.push(update);
    const stop = store.hearFlight(name, (update) => hear(update));
    let landed: PollerUpdate | undefined;
    let waited = 0;
    try {
      // Announced by its owner and not landed: waited for without a word to the store, from
      // the mark before the owner's. Else the lease, which lasts the longest wait however long
      // this instance's waiters wait: a read that comes while the owner is slow still finds it.
      const announced = store.announced(name);
      const tick = announced ? undefined : await store.flight(name, options.maxWaitMs);
      const waitMs = bound();
      if (tick?.role === "owner") {
        stop();
        if (tick.alone) return await fallBack("unshared", call);
        return await own(name, { ...tick.mark, from: store.instanceId }, timed(call));
      }
      if (confirmed !== undefined && !(await confirmed)) return STALE;
      const latest: Mark | undefined = announced
        ? { epoch: announced.epoch, seq: announced.seq - 1 }
        : tick?.latest;
      const started = performance.now();
      waiting += 1;
      landed = await new Promise<PollerUpdate | undefined>((resolve) => {
        let finished = false;
        const done = (update: PollerUpdate | undefined) => {
          if (finished) return;
          finished = true;
          waiting -= 1;
          clearTimeout(timer);
          unfollowAbort(signal, onAbort);
          hear = () => undefined;
          resolve(update);
        };
        const onAbort = () => done(undefined);
        // Timers run before the loop reads its sockets: a process that was busy past the bound
        // reads what arrived meanwhile (setImmediate comes after that read) before giving up.
        const timer = setTimeout(() => setImmediate(() => done(undefined)), waitMs);
        followAbort(signal, onAbort);
        // Only an answer newer than the newest at the tick is this flight's.
        hear = (update) => {
          if (isNewer(update, latest)) done(update);
        };
        for (const update of heard) hear(update);
        if (signal.aborted) done(undefined);
      });
      waited = performance.now() - started;
    } finally {
      stop();
    }
    if (signal.aborted) throw signal.reason ?? abortError();
    if (landed === undefined) {
      // Nothing came: the next read asks the store rather than wait on the same silence.
      store.forgetFlight(name);
      return fallBack("timeout", call);
    }
    const answer = parseLanded(landed.answer);
    if (answer === undefined || "none" in answer) {
      return fallBack(answer?.none ?? "failed", call);
    }
    observe(waited);
    count("joined");
    if ("error" in answer) {
      const error = new UpstreamError(answer.error);
      learn({ status: error.status, error });
      throw error;
    }
    learn({ status: answer.ok.status });
    return { ...answer.ok, rateLimit: answer.ok.rateLimit ?? undefined };
  }

  return {
    fly,
    fallbacks() {
      const out: Partial<Record<FlightOutcome, number>> = {};
      for (const outcome of FLIGHT_FALLBACKS) {
        const n = counts.get(outcome);
        if (n !== undefined) out[outcome] = n;
      }
      return out;
    },
  };
}

/** What a flight publishes, as text: none when it is larger than FLIGHT_MAX_BYTES. */
function landedText(landed: Landed): string {
  const text = JSON.stringify(landed);
  return Buffer.byteLength(text) > FLIGHT_MAX_BYTES ? JSON.stringify({ none: "too_large" }) : text;
}

/** A landed flight's answer: text as this instance's own store gave it, bytes as Redis did. */
function parseLanded(answer: unknown): Landed | undefined {
  const text = Buffer.isBuffer(answer) ? answer.toString() : answer;
  if (typeof text !== "string") return undefined;
  try {
    const value = JSON.parse(text) as Partial<Record<string, unknown>>;
    if (value.ok || value.error || value.none) return value as Landed;
  } catch {}
  return undefined;
}
