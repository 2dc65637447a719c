import type { LRUCache } from "lru-cache";
import { expiringLru } from "../upstream/expiring-lru.ts";
import { isNewer, type Mark } from "./mark.ts";
import type { PollerUpdate } from "./poller-store.ts";

/** At most this many flights are remembered as in the air; the oldest go first. */
const IN_AIR_CAPACITY = 10_000;

/**
 * What the one flights channel carries: a flight taken (its lease granted), its answer, or that
 * an instance took the lease of a flight another may fly without the store (`rival`).
 */
export type FlightMessage =
  | { flight: string; started: Mark & { from: string; leaseMs: number } }
  | { flight: string; rival: string }
  | (PollerUpdate & { flight: string });

/**
 * A landed flight as the channel carries it: a line of JSON naming the flight and its mark, then
 * the answer's text as the owner wrote it. Every instance reads the line; only one with a read
 * waiting on that flight ever parses the answer.
 */
export function flightText(name: string, update: PollerUpdate): string {
  return `${flightHeader(name, update)}${String(update.answer)}`;
}

/** flightText's first line, with its newline: the flight and its mark, without the answer. */
export function flightHeader(name: string, update: Omit<PollerUpdate, "answer">): string {
  const { epoch, seq, from } = update;
  return `${JSON.stringify({ flight: name, epoch, seq, from })}\n`;
}

/**
 * A flights channel message as an instance published it (flightText, or a lease's announcement),
 * or undefined. Only the first line is decoded: an answer stays as it came (bytes from Redis)
 * until a read waiting on its flight parses it (parseLanded in flights.ts).
 */
export function parseFlightMessage(text: string | Buffer): FlightMessage | undefined {
  const end = text.indexOf("\n");
  const [line, answer] =
    typeof text === "string"
      ? [end < 0 ? text : text.slice(0, end), text.slice(end + 1)]
      : [text.toString("utf8", 0, end < 0 ? undefined : end), text.subarray(end + 1)];
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const message = value as Record<string, unknown>;
  if (typeof message.flight !== "string") return undefined;
  if (end < 0 && typeof message.rival === "string") {
    return { flight: message.flight, rival: message.rival };
  }
  if (end < 0) {
    const started = message.started as Record<string, unknown> | null | undefined;
    return typeof started === "object" &&
      started !== null &&
      typeof started.epoch === "string" &&
      typeof started.seq === "number" &&
      typeof started.from === "string" &&
      typeof started.leaseMs === "number" &&
      started.leaseMs > 0
      ? {
          flight: message.flight,
          started: started as unknown as Mark & { from: string; leaseMs: number },
        }
      : undefined;
  }
  return typeof message.epoch === "string" &&
    typeof message.seq === "number" &&
    typeof message.from === "string"
    ? {
        flight: message.flight,
        epoch: message.epoch,
        seq: message.seq,
        from: message.from,
        answer,
      }
    : undefined;
}

/** How long a landed flight is remembered, so that its announcement, if it comes late, is not believed. */
const LANDED_MEMORY_MS = 10_000;

/**
 * How long a flight counts as shared once another instance was heard flying it, took its lease
 * first or took it last (unless a grant of this instance's since showed no rival): its next
 * read asks the store before calling. A read no other instance made for that long calls at
 * once, and a sudden rival costs an instance at most one call before the flight counts as
 * shared again. As long, the store announces a flight whose lease it refused to some attempt.
 */
export const FLIGHT_RIVAL_MS = 10_000;

/**
 * The flights announced and not landed, as this instance heard them (its own too: a read of this
 * instance whose local call was not the owner's, say one after a local write, waits as well): a read
 * that finds its flight here waits for the answer without asking the store, so a flight costs
 * Redis its owner's two scripts however many instances wait on it. An entry goes when the answer
 * is heard (and an announcement heard after its own answer is ignored), when its lease would have
 * ended, or when a waiter on it heard nothing in time (a lost message, a dead owner): the next
 * read asks the store again.
 */
export class FlightsInAir {
  readonly #flights = expiringLru<string, Mark & { landed: boolean }>({ max: IN_AIR_CAPACITY });

  /** Every message of the flights channel, this instance's own included. */
  heard(message: FlightMessage): void {
    if ("rival" in message) return;
    const known = this.#flights.get(message.flight);
    if ("started" in message) {
      const { epoch, seq, leaseMs } = message.started;
      if (known?.landed && !isNewer({ epoch, seq }, known)) return;
      this.#flights.set(message.flight, { epoch, seq, landed: false }, { ttl: leaseMs });
      return;
    }
    if (known && isNewer(known, message)) return;
    const { epoch, seq } = message;
    this.#flights.set(message.flight, { epoch, seq, landed: true }, { ttl: LANDED_MEMORY_MS });
  }

  /** The mark of `name`'s flight in the air, if one was announced and its answer not heard. */
  find(name: string): Mark | undefined {
    const known = this.#flights.get(name);
    return known && !known.landed ? { epoch: known.epoch, seq: known.seq } : undefined;
  }

  /** The mark `name`'s flight landed under lately (landed memory), if none newer is in the air. */
  landed(name: string): Mark | undefined {
    const known = this.#flights.get(name);
    return known?.landed ? { epoch: known.epoch, seq: known.seq } : undefined;
  }

  forget(name: string): void {
    this.#flights.delete(name);
  }

  clear(): void {
    this.#flights.clear();
  }
}

/**
 * The lease a flight of this instance's lands under, whether its grant was announced, and
 * whether it was granted here without the store (FlightListeners.ownAlone): nothing to land there.
 */
export interface Landing {
  holder: string;
  announced: boolean;
  solo?: true;
}

/**
 * One instance's hearing of the flights channel, for either store: what is in the air, and the
 * reads waiting on each flight's answer (several reads of one instance may wait on one flight).
 */
export class FlightListeners {
  readonly inAir = new FlightsInAir();
  readonly #waiting = new Map<string, Set<(update: PollerUpdate) => void>>();
  /** The lease each flight this instance owns was taken under, until it lands. */
  readonly #holders = new Map<string, Landing>();
  /** Flights another instance flew lately, as heard or as a refused lease showed. */
  readonly #rivalled: LRUCache<string, true>;
  /** Flights whose last grant (within `soloMs`) had no rival and was not announced. */
  readonly #solo: LRUCache<string, true>;
  /** How long a rival is remembered, here and by the store (a flight's last owner, its contention). */
  readonly rivalMs: number;
  /** How long a grant with no rival lets this instance grant the flight itself (ownAlone). */
  readonly #soloMs: number;
  readonly #instanceId: string;
  /** How this instance's attempts begin (attempt()): a lease announcement's `from` names one. */
  readonly #attemptPrefix: string;
  #attempts = 0;

  /**
   * `soloMs`: how long after a grant with no rival this instance flies the flight without the
   * store (ownAlone); 0 never. Shorter than `rivalMs`, so the store still names this instance
   * the flight's last owner all that time (see ownAlone).
   */
  constructor(instanceId: string, rivalMs = FLIGHT_RIVAL_MS, soloMs = rivalMs / 2) {
    this.#instanceId = instanceId;
    this.#attemptPrefix = `${instanceId}:`;
    this.rivalMs = rivalMs;
    this.#rivalled = expiringLru({ max: IN_AIR_CAPACITY, ttl: rivalMs });
    this.#solo = expiringLru({ max: IN_AIR_CAPACITY, ttl: Math.max(1, soloMs) });
    this.#soloMs = soloMs;
  }

  /**
   * A holder for one attempt at a flight's lease: the instance and a count, so a second attempt
   * of this instance at a flight it already owns waits for it as any other would.
   */
  attempt(): string {
    this.#attempts += 1;
    return `${this.#attemptPrefix}${this.#attempts}`;
  }

  /**
   * The lease of `name` was granted to `holder` under `mark`: in the air here at once, announced
   * or not, so another read of this instance waits for it rather than race it. A grant that was
   * announced (as a contended flight's is) or came after another instance's lease (`rival`)
   * makes the flight a rival's lately; any other makes it this instance's alone again: no other
   * instance took its lease since this one last did, nor was refused it lately.
   */
  owned(
    name: string,
    holder: string,
    mark: Mark & { leaseMs: number },
    grant: { announced: boolean; rival: boolean },
  ): void {
    if (grant.announced || grant.rival) {
      this.#rivalled.set(name, true);
      this.#solo.delete(name);
    } else {
      this.#rivalled.delete(name);
      if (this.#soloMs > 0) this.#solo.set(name, true);
    }
    this.#holders.set(name, { holder, announced: grant.announced });
    const { epoch, seq, leaseMs } = mark;
    this.inAir.heard({ flight: name, started: { epoch, seq, from: holder, leaseMs } });
  }

  /**
   * This instance lands `name`: heard here at once, before the store echoes it, so a read that
   * begins once the owner's answer is out never waits on the flight as still in the air. The
   * lease it is landed under is returned (it ends with the landing).
   */
  landing(
    name: string,
    mark: Omit<PollerUpdate, "answer">,
    answer: () => string,
  ): Landing | undefined {
    const awaited = this.#waiting.has(name);
    this.heard({ ...mark, flight: name, answer: awaited ? answer() : undefined });
    const holder = this.#holders.get(name);
    this.#holders.delete(name);
    return holder;
  }

  /**
   * A grant of `name` made here, without a word to the store, or undefined: only for a flight
   * flown alone whose last grant from the store, within `soloMs`, found no rival. That grant
   * left this instance the flight's last owner in the store for `rivalMs`, marked as one that
   * may fly alone, so any other instance's grant since found a rival and said so on the flights
   * channel (the `rival` message), which ends this. Its answer stays here; a read of another
   * instance that meets it makes its own call, as one that met a lease taken beside a call
   * would. The mark follows the landed one, so that it orders as a grant of the store's would.
   */
  ownAlone(name: string, leaseMs: number): Mark | undefined {
    const landed = this.inAir.landed(name);
    if (landed === undefined || !this.#solo.has(name) || this.#rivalled.has(name)) return undefined;
    const holder = this.attempt();
    const mark = { epoch: landed.epoch, seq: landed.seq + 1 };
    this.#holders.set(name, { holder, announced: false, solo: true });
    this.inAir.heard({ flight: name, started: { ...mark, from: holder, leaseMs } });
    return mark;
  }

  /**
   * Another instance holds `name`'s lease, took it last (within FLIGHT_RIVAL_MS), or was refused
   * it and awaits this instance's answer.
   */
  refused(name: string): void {
    this.#rivalled.set(name, true);
  }

  /** Whether `name`'s last flight landed here lately, with no other instance's within FLIGHT_RIVAL_MS. */
  flownAlone(name: string): boolean {
    return this.inAir.landed(name) !== undefined && !this.#rivalled.has(name);
  }

  heard(message: FlightMessage): void {
    this.inAir.heard(message);
    const from =
      "started" in message
        ? message.started.from
        : "rival" in message
          ? message.rival
          : message.from;
    if (from !== this.#instanceId && !from.startsWith(this.#attemptPrefix)) {
      this.#rivalled.set(message.flight, true);
    }
    if ("started" in message || "rival" in message) return;
    for (const listener of [...(this.#waiting.get(message.flight) ?? [])]) listener(message);
  }

  /** Hears `name`'s answers until the returned function is called. */
  hear(name: string, onUpdate: (update: PollerUpdate) => void): () => void {
    let heard = this.#waiting.get(name);
    if (!heard) {
      heard = new Set();
      this.#waiting.set(name, heard);
    }
    const own = heard;
    own.add(onUpdate);
    return () => {
      own.delete(onUpdate);
      if (own.size === 0 && this.#waiting.get(name) === own) this.#waiting.delete(name);
    };
  }

  clear(): void {
    this.#waiting.clear();
    this.#holders.clear();
    this.#rivalled.clear();
    this.#solo.clear();
    this.inAir.clear();
  }
}
