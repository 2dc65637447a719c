import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** The bounds of graphql-sse's single-connection streams (docs/limits.md). */
export interface SseStreamLimits {
  /** A reservation nobody opens is forgotten after this long (SSE_RESERVATION_TTL_MS). */
  reservationTtlMs: number;
  /** Reservations (open or not) one key or session may hold (SSE_RESERVATIONS_PER_KEY). */
  reservationsPerKey: number;
  /** Reservations the instance holds at once (SSE_RESERVATIONS_TOTAL). */
  reservationsTotal: number;
  /** Bytes of results waiting to be written to one stream; past it the stream ends. */
  maxQueuedBytes: number;
}

/** One reserved stream: who holds it, and what it costs. */
export class Reservation {
  readonly token: string;
  /** The keyed hash of its holder (a key's hash, or a session's organization and subject). */
  readonly binding: Buffer;
  readonly holder: string;
  /** Whether its key was one the upstream had accepted (or a verified session's). */
  vouched = false;
  /** What the subscription limits count as this stream's connection. */
  readonly connection = {};
  opened = false;
  /** Operations started on it and not yet over. */
  activeOperations = 0;
  queuedBytes = 0;
  /** The size of each queued result, first queued first. */
  readonly #queued: number[] = [];
  /** Ends the stream inside graphql-sse (its operations too); set by whoever can. */
  close: () => void = () => {};

  constructor(token: string, binding: Buffer, holder: string) {
    this.token = token;
    this.binding = binding;
    this.holder = holder;
  }

  /** Counts a result queued for the stream; false once the stream holds more than `max` bytes. */
  enqueue(bytes: number, max: number): boolean {
    this.#queued.push(bytes);
    this.queuedBytes += bytes;
    return this.queuedBytes <= max;
  }

  /** A queued result was handed to the connection. */
  dequeue(): void {
    this.queuedBytes -= this.#queued.shift() ?? 0;
  }
}

/**
 * Why a reservation was refused: past the holder's share, past the instance's, or past the half
 * of it that keys the upstream has not accepted yet may take.
 */
export type ReservationRefusal = "holder" | "total" | "unaccepted";

/**
 * The reserved streams of one instance. Tokens are 256 random bits from node:crypto (after the
 * instance's prefix, when it has one), never the client's; each is bound to a keyed hash of its holder (HMAC with a per-process secret), so
 * knowing a token gives nothing without the key or session that reserved it.
 */
export class SseReservations {
  readonly limits: SseStreamLimits;
  readonly #byToken = new Map<string, Reservation>();
  readonly #byHolder = new Map<string, number>();
  readonly #secret = randomBytes(32);
  #open = 0;
  #unvouched = 0;

  readonly #prefix: string;

  /** `tokenPrefix`: what a balancer routes a fleet's streams by (SSE_TOKEN_PREFIX). */
  constructor(limits: SseStreamLimits, tokenPrefix?: string) {
    this.limits = limits;
    this.#prefix = tokenPrefix === undefined ? "" : `${tokenPrefix}.`;
  }

  /** Streams opened (a GET holding a connection) and not yet ended. */
  get open(): number {
    return this.#open;
  }

  get size(): number {
    return this.#byToken.size;
  }

  /** Reservations keys the upstream has not accepted yet may hold together. */
  get unacceptedShare(): number {
    return Math.max(1, Math.floor(this.limits.reservationsTotal / 2));
  }

  /**
   * A fresh reservation for `holder`, or why there is none; its expiry is armed. A key passes the
   * local checks however it was made up: keys the upstream has not accepted yet (`vouched`
   * false) share half of the total, so made-up keys cannot take every place.
   */
  reserve(holder: string, vouched: boolean): Reservation | ReservationRefusal {
    if (this.#byToken.size >= this.limits.reservationsTotal) return "total";
    if (!vouched && this.#unvouched >= this.unacceptedShare) return "unaccepted";
    const binding = this.#bindingOf(holder);
    const bound = binding.toString("base64url");
    const held = this.#byHolder.get(bound) ?? 0;
    if (held >= this.limits.reservationsPerKey) return "holder";
    const reservation = new Reservation(
      `${this.#prefix}${randomBytes(32).toString("base64url")}`,
      binding,
      bound,
    );
    reservation.vouched = vouched;
    if (!vouched) this.#unvouched += 1;
    this.#byToken.set(reservation.token, reservation);
    this.#byHolder.set(bound, held + 1);
    const expiry = setTimeout(() => {
      if (!reservation.opened) reservation.close();
    }, this.limits.reservationTtlMs);
    expiry.unref();
    return reservation;
  }

  /** The reservation of `token` if `holder` made it; undefined alike for any other case. */
  find(token: string | undefined, holder: string | undefined): Reservation | undefined {
    // A holder's binding is computed even for an unknown token: both cost the same.
    const binding = this.#bindingOf(holder ?? "");
    const reservation = token === undefined ? undefined : this.#byToken.get(token);
    if (reservation === undefined || holder === undefined) return undefined;
    return timingSafeEqual(reservation.binding, binding) ? reservation : undefined;
  }

  /** Whether the reservation is still held (not expired, closed or ended). */
  holds(reservation: Reservation): boolean {
    return this.#byToken.get(reservation.token) === reservation;
  }

  markOpened(reservation: Reservation): void {
    if (reservation.opened || !this.#byToken.has(reservation.token)) return;
    reservation.opened = true;
    this.#open += 1;
  }

  /** The stream is gone (ended, expired or closed): its places are free again. */
  forget(reservation: Reservation): void {
    if (this.#byToken.get(reservation.token) !== reservation) return;
    this.#byToken.delete(reservation.token);
    if (reservation.opened) this.#open -= 1;
    if (!reservation.vouched) this.#unvouched -= 1;
    const left = (this.#byHolder.get(reservation.holder) ?? 1) - 1;
    if (left <= 0) this.#byHolder.delete(reservation.holder);
    else this.#byHolder.set(reservation.holder, left);
  }

  /** Every reservation, to end them all (a drain). */
  all(): Reservation[] {
    return [...this.#byToken.values()];
  }

  #bindingOf(holder: string): Buffer {
    return createHmac("sha256", this.#secret).update(holder).digest();
  }
}
