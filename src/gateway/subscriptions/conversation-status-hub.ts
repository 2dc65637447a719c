import { randomUUID } from "node:crypto";
import { Repeater, SlidingBuffer } from "graphql-yoga";
import { gatewayError } from "../../errors.ts";
import type { PollerFleet, PollerUpdate, SharedPoller } from "../../fleet/poller-lease.ts";
import type { ConversationStatusFeed, StatusEvent } from "../../schema/context.ts";
import type { UpstreamClient } from "../../upstream/client.ts";
import type { ConversationStatusDto } from "../../upstream/dto.ts";
import {
  type UnavailableReason,
  UpstreamError,
  UpstreamUnavailableError,
} from "../../upstream/errors.ts";
import type { KeyHasher } from "../../upstream/key-memory.ts";
import { createRestApi } from "../../upstream/rest-api.ts";
import { GATEWAY_DEFAULTS } from "../defaults.ts";
import { retryAfterSeconds } from "../mask-error.ts";

/** What a subscriber receives: a changed status view, or the error that ends the stream. */

export interface ConversationStatusHubOptions {
  upstream: UpstreamClient;
  /** The gateway's naming of keys (createKeyHasher): pollers, leases and calls are keyed by it. */
  keyHash: KeyHasher;
  /** Time between two polls of operation 8 (POLL_INTERVAL_MS). */
  intervalMs: number;
  /**
   * Consecutive transient failures (5xx, 429, unreachable) tolerated before giving up
   * (GATEWAY_DEFAULTS.pollMaxTransientFailures).
   * After a 429 the next poll waits for the rate-limit window to reset (at most 60 s).
   */
  maxTransientFailures?: number;
  /** With REDIS_URL: one poller per key and conversation across the fleet (fleet/poller-lease.ts). */
  fleet?: PollerFleet;
  /** Told of every poll (metrics: voicegraph_upstream_requests_total), as operations' calls are. */
  onCallDone?: (call: { route: string; status: string; seconds: number }) => void;
  /** Told when a poller starts: its request ID (sent upstream with every poll) and instance. */
  onPollerStart?: (poller: { requestId: string; instanceId: string }) => void;
}

type HubOptions = Required<
  Omit<ConversationStatusHubOptions, "fleet" | "onCallDone" | "onPollerStart">
> &
  Pick<ConversationStatusHubOptions, "fleet" | "onCallDone" | "onPollerStart">;

type Subscriber = (event: StatusEvent | "end") => void;

/**
 * Polls operation 8 for `Subscription.conversationStatus`: one poller per (API key,
 * conversation) however many subscribers share it; subscribers see only changes, and the
 * stream ends once the call has ended, or with the error that stopped the polling.
 */
export class ConversationStatusHub implements ConversationStatusFeed {
  readonly #pollers = new Map<string, Poller>();
  readonly #options: HubOptions;
  #shutDown = false;

  constructor(options: ConversationStatusHubOptions) {
    this.#options = {
      maxTransientFailures: GATEWAY_DEFAULTS.pollMaxTransientFailures,
      ...options,
    };
  }

  /** Live pollers, for tests and metrics. */
  get pollerCount(): number {
    return this.#pollers.size;
  }

  /** Of those, the ones that poll the upstream here (the rest follow another instance's). */
  get ownedPollerCount(): number {
    let owned = 0;
    for (const poller of this.#pollers.values()) if (poller.owns) owned += 1;
    return owned;
  }

  subscribe(authorization: string, conversationId: string): AsyncIterableIterator<StatusEvent> {
    // The key is hashed so that no map key, log or heap dump line shows it.
    // One poller per key however its header is spelled (`Bearer  k ` is `Bearer k`).
    const key = `${this.#options.keyHash(authorization)}:${conversationId}`;
    // Only the newest state matters: a subscriber that reads slowly (a stalled socket) gets the
    // latest update when it reads again, instead of a queue that grows until Repeater throws
    // inside the shared poll loop (1024 pending pushes) and breaks it for every subscriber.
    return new Repeater<StatusEvent>(async (push, stop) => {
      if (this.#shutDown) {
        push(shuttingDown());
        stop();
        return;
      }
      let poller = this.#pollers.get(key);
      if (!poller) {
        poller = new Poller(this.#options, authorization, conversationId, key, () =>
          this.#pollers.delete(key),
        );
        this.#pollers.set(key, poller);
      }
      const subscriber: Subscriber = (event) => {
        if (event === "end") {
          stop();
          return;
        }
        push(event);
        if (event instanceof Error) stop();
      };
      poller.add(subscriber);
      await stop;
      poller.remove(subscriber);
    }, new SlidingBuffer(1));
  }

  close(): void {
    for (const poller of this.#pollers.values()) poller.end();
  }

  /**
   * A drain: every stream ends with a SHUTTING_DOWN error rather than a normal completion (the
   * call has not ended; the client should follow it again elsewhere), and none starts after.
   */
  shutDown(): void {
    this.#shutDown = true;
    for (const poller of this.#pollers.values()) poller.fail(shuttingDown());
  }
}

class Poller {
  readonly #subscribers = new Set<Subscriber>();
  readonly #abort = new AbortController();
  readonly #options: HubOptions;
  readonly #conversationId: string;
  readonly #authorization: string;
  readonly #onEnd: () => void;
  /** This call's place in the fleet's pollers, when there is a fleet. */
  readonly #shared: SharedPoller | undefined;
  readonly #requestId = `poll-${randomUUID()}`;
  #latest: ConversationStatusDto | undefined;
  /** The newest fleet update delivered here (PollerUpdate.seq, within PollerUpdate.epoch). */
  #seq = 0;
  #epoch: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  #transientFailures = 0;
  #ended = false;
  /** Whether this instance polled the upstream at its last tick. */
  owns = true;
  /** Whether its last tick took part in the fleet's lease (else it polled on its own). */
  #leased = false;

  constructor(
    options: HubOptions,
    authorization: string,
    conversationId: string,
    watch: string,
    onEnd: () => void,
  ) {
    this.#options = options;
    this.#authorization = authorization;
    this.#conversationId = conversationId;
    this.#onEnd = onEnd;
    this.#shared = options.fleet?.join(watch, (update) => this.#hear(update));
    options.onPollerStart?.({
      requestId: this.#requestId,
      instanceId: options.fleet?.instanceId ?? "local",
    });
    this.#timer = setTimeout(() => void this.#start(), 0);
  }

  add(subscriber: Subscriber): void {
    this.#subscribers.add(subscriber);
    if (this.#latest) subscriber(this.#latest);
  }

  remove(subscriber: Subscriber): void {
    this.#subscribers.delete(subscriber);
    if (this.#subscribers.size === 0) this.end();
  }

  /** Ends every subscriber's stream with `error`. */
  fail(error: Error): void {
    for (const subscriber of this.#subscribers) subscriber(error);
    this.end();
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#timer);
    this.#abort.abort();
    this.#shared?.leave();
    this.#onEnd();
    for (const subscriber of this.#subscribers) subscriber("end");
  }

  /** A new follower starts from the fleet's newest update instead of waiting for a change. */
  async #start(): Promise<void> {
    const latest = await this.#shared?.latest();
    if (latest) this.#hear(latest);
    if (!this.#ended) await this.#tick();
  }

  /** Once per interval: poll if this instance owns the call (or there is no fleet), else listen. */
  async #tick(): Promise<void> {
    // A key the upstream has not accepted lately is polled here first, outside the lease: a key
    // it refuses leaves nothing in Redis (no lease, no kept update).
    const proven =
      this.#options.upstream.knowsKey?.(this.#options.keyHash(this.#authorization)) ?? true;
    this.#leased = this.#shared !== undefined && proven;
    const role = this.#shared && proven ? await this.#shared.tick() : "owner";
    if (this.#ended) return;
    this.owns = role === "owner";
    const delayMs = this.owns ? await this.#poll() : this.#options.intervalMs;
    if (this.#ended || delayMs === undefined) return;
    this.#timer = setTimeout(() => void this.#tick(), delayMs);
  }

  /** Another instance's update: delivered once, in order, and only when it changes something. */
  #hear(update: PollerUpdate): void {
    if (this.#ended) return;
    // A new epoch (Redis came back empty, its counter from 1) is newer than anything before it.
    if (update.epoch === this.#epoch && update.seq <= this.#seq) return;
    this.#epoch = update.epoch;
    this.#seq = update.seq;
    if (update.error !== undefined) {
      this.fail(fromShared(update.error));
      return;
    }
    const status = update.status as ConversationStatusDto;
    this.#deliver(status);
  }

  #deliver(status: ConversationStatusDto): void {
    if (!this.#latest || changed(this.#latest, status)) {
      this.#latest = status;
      for (const subscriber of this.#subscribers) subscriber(status);
    }
    if (status.endedAt != null) this.end();
  }

  /** One poll; the delay until the next, or undefined once the stream has ended. */
  async #poll(): Promise<number | undefined> {
    const api = createRestApi(this.#options.upstream, {
      authorization: this.#authorization,
      keyHash: this.#options.keyHash,
      signal: this.#abort.signal,
      requestId: this.#requestId,
      ...(this.#options.onCallDone ? { onCallDone: this.#options.onCallDone } : {}),
    });
    try {
      const status = await api.getConversationStatus(this.#conversationId);
      this.#transientFailures = 0;
      if (this.#ended) return undefined;
      if (!this.#latest || changed(this.#latest, status)) {
        await this.#shared?.publish({ status });
      }
      this.#deliver(status);
      return this.#ended ? undefined : this.#options.intervalMs;
    } catch (error) {
      if (this.#ended) return undefined;
      const transient = isTransient(error);
      this.#transientFailures += transient ? 1 : 0;
      if (!transient || this.#transientFailures > this.#options.maxTransientFailures) {
        const failure = error instanceof Error ? error : new Error(String(error));
        if (this.#leased) await this.#shared?.publish({ error: toShared(failure) });
        this.fail(failure);
        return undefined;
      }
      return rateLimitWaitMs(error, this.#options.intervalMs);
    }
  }
}

/** An error as the fleet carries it: an upstream answer's facts, or a message alone. */
function toShared(error: Error): unknown {
  if (error instanceof UpstreamError) {
    const { status, code, message, requestId, details, retryAfter } = error;
    return { status, code, message, requestId, details, retryAfter };
  }
  if (error instanceof UpstreamUnavailableError)
    return { reason: error.reason, message: error.message };
  return { message: error.message };
}

/** The error another instance's poller ended with, made again here for its subscribers. */
function fromShared(shared: unknown): Error {
  const facts = (shared ?? {}) as Partial<UpstreamError>;
  if (typeof facts.status === "number" && typeof facts.code === "string") {
    return new UpstreamError({
      status: facts.status,
      code: facts.code,
      message: String(facts.message ?? ""),
      requestId: facts.requestId ?? undefined,
      details: facts.details ?? undefined,
      retryAfter: facts.retryAfter ?? undefined,
    });
  }
  const reason = (shared as { reason?: unknown } | undefined)?.reason;
  if (typeof reason === "string") {
    return new UpstreamUnavailableError(reason as UnavailableReason, String(facts.message ?? ""));
  }
  return new Error(String(facts.message ?? "the poller failed"));
}

function shuttingDown(): Error {
  return gatewayError(
    "SHUTTING_DOWN",
    "The server is shutting down; subscribe again to follow this call.",
  );
}

function changed(before: ConversationStatusDto, after: ConversationStatusDto): boolean {
  return (
    before.duration !== after.duration ||
    before.startedAt !== after.startedAt ||
    before.endedAt !== after.endedAt ||
    before.status !== after.status
  );
}

/** Longest wait for a rate-limit window to reset before polling again. */
const MAX_RATE_LIMIT_WAIT_MS = 60_000;

/**
 * After a 429 the next poll waits as long as the client is told to (`retryAfter`, from the
 * window's reset) rather than spending the tolerated failures on a window that is still closed.
 */
function rateLimitWaitMs(error: unknown, intervalMs: number): number {
  if (!(error instanceof UpstreamError) || error.status !== 429) return intervalMs;
  const waitMs = retryAfterSeconds(error) * 1000;
  return Math.max(intervalMs, Math.min(waitMs, MAX_RATE_LIMIT_WAIT_MS));
}

/** Worth polling again: rate limits, upstream 5xx and unreachability pass; 4xx do not. */
function isTransient(error: unknown): boolean {
  if (error instanceof UpstreamError) return error.status === 429 || error.status >= 500;
  return true;
}
