import { LRUCache } from "lru-cache";
import { isNewer, type Mark } from "./mark.ts";
import type { PollerUpdate } from "./poller-store.ts";

/** At most this many flights are remembered as in the air; the oldest go first. */
const IN_AIR_CAPACITY = 10_000;

/** What the one flights channel carries: a flight taken (its lease granted), or its answer. */
export type FlightMessage =
  | { flight: string; started: Mark & { from: string; leaseMs: number } }
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
  readonly #flights = new LRUCache<string, Mark & { landed: boolean }>({ max: IN_AIR_CAPACITY });

  /** Every message of the flights channel, this instance's own included. */
  heard(message: FlightMessage): void {
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

  /** Whether `name`'s flight landed within the landed memory and no newer one is in the air. */
  landed(name: string): boolean {
    return this.#flights.get(name)?.landed === true;
  }

  forget(name: string): void {
    this.#flights.delete(name);
  }

  clear(): void {
    this.#flights.clear();
  }
}

/** The lease a flight of this instance's lands under, and whether its grant was announced. */
export interface Landing {
  holder: string;
  announced: boolean;
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
  /** How long a rival is remembered, here and by the store (a flight's last owner, its contention). */
  readonly rivalMs: number;
  readonly #instanceId: string;
  /** How this instance's attempts begin (attempt()): a lease announcement's `from` names one. */
  readonly #attemptPrefix: string;
  #attempts = 0;

  constructor(instanceId: string, rivalMs = FLIGHT_RIVAL_MS) {
    this.#instanceId = instanceId;
    this.#attemptPrefix = `${instanceId}:`;
    this.rivalMs = rivalMs;
    this.#rivalled = new LRUCache({ max: IN_AIR_CAPACITY, ttl: rivalMs });
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
    if (grant.announced || grant.rival) this.#rivalled.set(name, true);
    else this.#rivalled.delete(name);
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

  /** Another instance holds `name`'s lease, or took it last (within FLIGHT_RIVAL_MS). */
  refused(name: string): void {
    this.#rivalled.set(name, true);
  }

  /** Whether `name`'s last flight landed here lately, with no other instance's within FLIGHT_RIVAL_MS. */
  flownAlone(name: string): boolean {
    return this.inAir.landed(name) && !this.#rivalled.has(name);
  }

  heard(message: FlightMessage): void {
    this.inAir.heard(message);
    const from = "started" in message ? message.started.from : message.from;
    if (from !== this.#instanceId && !from.startsWith(this.#attemptPrefix)) {
      this.#rivalled.set(message.flight, true);
    }
    if ("started" in message) return;
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
    this.inAir.clear();
  }
}
