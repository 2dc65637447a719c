import { Repeater, SlidingBuffer } from "graphql-yoga";
import { gatewayError } from "../errors.ts";
import type { ConversationStatusFeed, StatusEvent } from "../schema/context.ts";
import type { UpstreamClient } from "../upstream/client.ts";
import type { ConversationStatusDto } from "../upstream/conversation-dto.ts";
import { UpstreamError } from "../upstream/errors.ts";
import { keyHash } from "../upstream/key-memory.ts";
import { createRestApi } from "../upstream/rest-api.ts";
import { retryAfterSeconds } from "./mask-error.ts";

/** What a subscriber receives: a changed status view, or the error that ends the stream. */

export interface ConversationStatusHubOptions {
  upstream: UpstreamClient;
  /** Time between two polls of operation 8; default 1000 ms. */
  intervalMs?: number;
  /**
   * Consecutive transient failures (5xx, 429, unreachable) tolerated before giving up; default 5.
   * After a 429 the next poll waits for the rate-limit window to reset (at most 60 s).
   */
  maxTransientFailures?: number;
}

type Subscriber = (event: StatusEvent | "end") => void;

/**
 * Polls operation 8 for `Subscription.conversationStatus`: one poller per (API key,
 * conversation) however many subscribers share it; subscribers see only changes, and the
 * stream ends once the call has ended, or with the error that stopped the polling.
 */
export class ConversationStatusHub implements ConversationStatusFeed {
  readonly #pollers = new Map<string, Poller>();
  readonly #options: Required<ConversationStatusHubOptions>;
  #shutDown = false;

  constructor(options: ConversationStatusHubOptions) {
    this.#options = { intervalMs: 1000, maxTransientFailures: 5, ...options };
  }

  /** Live pollers, for tests and metrics. */
  get pollerCount(): number {
    return this.#pollers.size;
  }

  subscribe(authorization: string, conversationId: string): AsyncIterableIterator<StatusEvent> {
    // The key is hashed so that no map key, log or heap dump line shows it.
    // One poller per key however its header is spelled (`Bearer  k ` is `Bearer k`).
    const key = `${keyHash(authorization)}:${conversationId}`;
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
        poller = new Poller(this.#options, authorization, conversationId, () =>
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
  readonly #options: Required<ConversationStatusHubOptions>;
  readonly #conversationId: string;
  readonly #authorization: string;
  readonly #onEnd: () => void;
  #latest: ConversationStatusDto | undefined;
  #timer: NodeJS.Timeout | undefined;
  #transientFailures = 0;
  #ended = false;

  constructor(
    options: Required<ConversationStatusHubOptions>,
    authorization: string,
    conversationId: string,
    onEnd: () => void,
  ) {
    this.#options = options;
    this.#authorization = authorization;
    this.#conversationId = conversationId;
    this.#onEnd = onEnd;
    this.#timer = setTimeout(() => void this.#poll(), 0);
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
    this.#onEnd();
    for (const subscriber of this.#subscribers) subscriber("end");
  }

  async #poll(): Promise<void> {
    const api = createRestApi(this.#options.upstream, {
      authorization: this.#authorization,
      signal: this.#abort.signal,
    });
    let delayMs = this.#options.intervalMs;
    try {
      const status = await api.getConversationStatus(this.#conversationId);
      this.#transientFailures = 0;
      if (this.#ended) return;
      if (!this.#latest || changed(this.#latest, status)) {
        this.#latest = status;
        for (const subscriber of this.#subscribers) subscriber(status);
      }
      if (status.endedAt != null) {
        this.end();
        return;
      }
    } catch (error) {
      if (this.#ended) return;
      const transient = isTransient(error);
      this.#transientFailures += transient ? 1 : 0;
      if (!transient || this.#transientFailures > this.#options.maxTransientFailures) {
        const failure = error instanceof Error ? error : new Error(String(error));
        for (const subscriber of this.#subscribers) subscriber(failure);
        this.end();
        return;
      }
      delayMs = rateLimitWaitMs(error, this.#options.intervalMs);
    }
    if (this.#ended) return;
    this.#timer = setTimeout(() => void this.#poll(), delayMs);
  }
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
