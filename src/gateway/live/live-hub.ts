import { randomUUID } from "node:crypto";
import { gatewayError } from "../../errors.ts";
import type { PollerFleet, PollerUpdate, SharedPoller } from "../../fleet/poller-lease.ts";
import type { UpstreamClient } from "../../upstream/client.ts";
import { UpstreamError } from "../../upstream/errors.ts";
import type { KeyHasher } from "../../upstream/key-memory.ts";
import { routeOf } from "../../upstream/operations.ts";
import type { RateLimit } from "../../upstream/rate-limit.ts";
import { retryAfterSeconds } from "../mask-error.ts";
import {
  answerOf,
  answerText,
  type ReadAnswer,
  type ReadTemplate,
  requestDigest,
} from "./live-reads.ts";

export interface LiveHubOptions {
  /** The gateway's upstream (coalescing and key fairness included). */
  upstream: UpstreamClient;
  /** The gateway's naming of keys (createKeyHasher): pollers and paces are keyed by it. */
  keyHash: KeyHasher;
  /** POLL_INTERVAL_MS: the shortest time between two reads of one resource. */
  intervalMs: number;
  /**
   * LIVE_RATE_LIMIT_SHARE: the part of a key's advertised `remaining` its pollers may spend
   * before the window resets; past it their intervals stretch.
   */
  rateLimitShare: number;
  /** With REDIS_URL: one poller per (key, request) for the fleet (fleet/poller-lease.ts). */
  fleet?: PollerFleet;
  onCallDone?: (call: { route: string; status: string; seconds: number }) => void;
  now?: () => number;
}

/** Told when a read's answer changed. */
export type ReadListener = () => void;

/** Longest a 429 or a spent share pauses a key's pollers, whatever the reset time says. */
export const MAX_PAUSE_MS = 60_000;

/**
 * The pollers of live queries: one per (key hash, GET) however many live queries of however
 * many subscribers read it. Each re-reads its request once per interval (stretched by the key's
 * rate limit, paused by its 429) and tells its listeners only when the answer changed; a live
 * query's re-execution reads the poller's answer instead of calling the upstream again.
 */
export class LiveHub {
  readonly #pollers = new Map<string, ReadPoller>();
  readonly #keys = new Map<string, KeyPace>();
  readonly #options: LiveHubOptions;
  /** The live streams of this instance: each ends with the error a drain gives it. */
  readonly #streams = new Set<(error: Error) => void>();
  #shutDown = false;
  /** Counts the changes heard: live queries executed at one count read the same answers. */
  #changes = 0;

  constructor(options: LiveHubOptions) {
    this.#options = options;
  }

  /** The changes heard so far (any key, any read). */
  get changes(): number {
    return this.#changes;
  }

  /** Whether a drain has begun: no live stream starts after. */
  get shuttingDown(): boolean {
    return this.#shutDown;
  }

  /** A live stream, ended by `end` at a drain; returns its removal. */
  addStream(end: (error: Error) => void): () => void {
    this.#streams.add(end);
    return () => this.#streams.delete(end);
  }

  /**
   * A drain: every live stream ends with a SHUTTING_DOWN error (the client should run the query
   * again elsewhere), and none starts after.
   */
  shutDown(): void {
    this.#shutDown = true;
    const error = gatewayError(
      "SHUTTING_DOWN",
      "The server is shutting down; run this live query again to keep following it.",
    );
    for (const end of [...this.#streams]) end(error);
  }

  get pollerCount(): number {
    return this.#pollers.size;
  }

  get ownedPollerCount(): number {
    let owned = 0;
    for (const poller of this.#pollers.values()) if (poller.owns) owned += 1;
    return owned;
  }

  /** The newest answer of this key's read, when a poller holds one. */
  answer(hash: string, requestKey: string): ReadAnswer | undefined {
    return this.#pollers.get(`${hash}\n${requestKey}`)?.answer;
  }

  /**
   * Follows one read of one key: `seen` is the answer the caller just read itself (it becomes
   * the poller's if newer). Returns the release.
   */
  watch(
    authorization: string,
    requestKey: string,
    template: ReadTemplate,
    seen: ReadAnswer | undefined,
    listener: ReadListener,
  ): () => void {
    const hash = this.#options.keyHash(authorization);
    const id = `${hash}\n${requestKey}`;
    let poller = this.#pollers.get(id);
    if (!poller) {
      let pace = this.#keys.get(hash);
      if (!pace) {
        pace = new KeyPace(this.#options);
        this.#keys.set(hash, pace);
      }
      const keyPace = pace;
      poller = new ReadPoller(this.#options, keyPace, authorization, hash, requestKey, template);
      const created = poller;
      created.onChange = () => {
        this.#changes += 1;
      };
      created.onEmpty = () => {
        if (this.#pollers.get(id) === created) this.#pollers.delete(id);
        keyPace.pollers -= 1;
        if (keyPace.pollers === 0) this.#keys.delete(hash);
      };
      keyPace.pollers += 1;
      this.#pollers.set(id, poller);
    }
    if (seen) poller.offer(seen);
    return poller.add(listener);
  }

  /** The wait of this key's pollers before their next read, as things stand; undefined: none. */
  pacing(authorization: string): number | undefined {
    return this.#keys.get(this.#options.keyHash(authorization))?.delayMs();
  }

  /** A write of this key went through the gateway: each of its pollers reads again now. */
  invalidate(authorization: string): void {
    const hash = this.#options.keyHash(authorization);
    for (const poller of this.#pollers.values()) if (poller.hash === hash) poller.now();
  }

  close(): void {
    for (const poller of [...this.#pollers.values()]) poller.end();
  }
}

/** What one key's pollers know of its rate limit: the newest figures, and a 429's pause. */
class KeyPace {
  pollers = 0;
  rateLimit: RateLimit | undefined;
  pausedUntilMs = 0;
  readonly #options: LiveHubOptions;

  constructor(options: LiveHubOptions) {
    this.#options = options;
  }

  /**
   * The wait before a poller's next read: the interval, unless the key's pollers would spend
   * more than their share of what is left of the window before it resets; then as long as
   * spreading that share over the time left gives each.
   */
  delayMs(): number {
    const now = this.#options.now?.() ?? Date.now();
    if (this.pausedUntilMs > now) return this.pausedUntilMs - now;
    const interval = this.#options.intervalMs;
    const limit = this.rateLimit;
    if (!limit) return interval;
    const untilReset = limit.reset * 1000 - now;
    if (untilReset <= 0) return interval;
    const budget = Math.floor(limit.remaining * this.#options.rateLimitShare);
    // At least once a minute each poller looks again: the upstream's figures may change.
    if (budget < this.pollers) return Math.min(untilReset + 1, MAX_PAUSE_MS);
    const spread = Math.ceil((this.pollers * untilReset) / budget);
    return Math.max(interval, Math.min(spread, MAX_PAUSE_MS));
  }

  pause(error: UpstreamError): void {
    const now = this.#options.now?.() ?? Date.now();
    const waitMs = Math.min(Math.max(1, retryAfterSeconds(error)) * 1000, MAX_PAUSE_MS);
    this.pausedUntilMs = Math.max(this.pausedUntilMs, now + waitMs);
  }
}

class ReadPoller {
  readonly #listeners = new Set<ReadListener>();
  readonly #options: LiveHubOptions;
  readonly #pace: KeyPace;
  readonly #authorization: string;
  readonly #template: ReadTemplate;
  readonly #shared: SharedPoller | undefined;
  readonly #abort = new AbortController();
  readonly #requestId = `live-${randomUUID()}`;
  readonly hash: string;
  answer: ReadAnswer | undefined;
  #text: string | undefined;
  #seq = 0;
  #timer: NodeJS.Timeout | undefined;
  #polling = false;
  #again = false;
  #ended = false;
  owns = true;
  onEmpty: () => void = () => undefined;
  onChange: () => void = () => undefined;

  constructor(
    options: LiveHubOptions,
    pace: KeyPace,
    authorization: string,
    hash: string,
    requestKey: string,
    template: ReadTemplate,
  ) {
    this.#options = options;
    this.#pace = pace;
    this.#authorization = authorization;
    this.hash = hash;
    this.#template = template;
    this.#shared = options.fleet?.join(`live:${hash}:${requestDigest(requestKey)}`, (update) =>
      this.#hear(update),
    );
    void this.#start();
  }

  add(listener: ReadListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.end();
    };
  }

  /** An answer read by a live query itself: kept when it differs (it is at least as new). */
  offer(answer: ReadAnswer): void {
    // A new poller's first answer is the caller's own: no one needs telling.
    this.#deliver(answer, this.#text === undefined);
  }

  /** Reads again at once (a write through the gateway), whatever the lease says. */
  now(): void {
    if (this.#ended) return;
    clearTimeout(this.#timer);
    void this.#poll(true);
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#timer);
    this.#abort.abort();
    this.#shared?.leave();
    this.onEmpty();
  }

  async #start(): Promise<void> {
    const latest = await this.#shared?.latest();
    if (latest) this.#hear(latest);
    this.#schedule(this.#options.intervalMs);
  }

  #schedule(delayMs: number): void {
    if (this.#ended) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#tick(), delayMs);
  }

  async #tick(): Promise<void> {
    const role = this.#shared ? await this.#shared.tick() : "owner";
    if (this.#ended) return;
    this.owns = role === "owner";
    if (this.owns) await this.#poll(false);
    else this.#schedule(this.#options.intervalMs);
  }

  /** One read; a read asked for while one is under way runs right after it. */
  async #poll(urgent: boolean): Promise<void> {
    if (this.#polling) {
      this.#again ||= urgent;
      return;
    }
    this.#polling = true;
    try {
      const answer = await this.#read();
      if (this.#ended) return;
      if (answer && answerText(answer) !== this.#text) {
        this.#deliver(answer);
        await this.#shared?.publish({ status: answer });
      }
    } finally {
      this.#polling = false;
    }
    if (this.#again) {
      this.#again = false;
      return this.#poll(false);
    }
    this.#schedule(this.#pace.delayMs());
  }

  async #read(): Promise<ReadAnswer | undefined> {
    const started = performance.now();
    let outcome: unknown;
    try {
      outcome = await this.#options.upstream.request({
        method: "GET",
        ...this.#template,
        authorization: this.#authorization,
        keyHash: this.hash,
        requestId: this.#requestId,
        signal: this.#abort.signal,
        // A poll is a read of the upstream's present: never the read cache's copy.
        cache: "bypass",
        onRateLimit: (rateLimit) => {
          this.#pace.rateLimit = rateLimit;
        },
      });
    } catch (error) {
      outcome = error;
      if (error instanceof UpstreamError && error.status === 429) this.#pace.pause(error);
    }
    this.#options.onCallDone?.({
      route: this.#template.operation ? routeOf(this.#template.operation.row) : "GET (unknown)",
      status: outcomeStatus(outcome),
      seconds: (performance.now() - started) / 1000,
    });
    return answerOf(outcome);
  }

  #hear(update: PollerUpdate): void {
    if (this.#ended || update.seq <= this.#seq) return;
    this.#seq = update.seq;
    if (update.status !== undefined) this.#deliver(update.status as ReadAnswer);
  }

  /**
   * A newer answer: kept, and its listeners told (a poller that began without one, because its
   * first read failed, tells them of its first answer too).
   */
  #deliver(answer: ReadAnswer, quiet = false): void {
    const text = answerText(answer);
    if (text === this.#text) return;
    this.answer = answer;
    this.#text = text;
    if (quiet) return;
    this.onChange();
    for (const listener of [...this.#listeners]) listener();
  }
}

function outcomeStatus(outcome: unknown): string {
  if (outcome instanceof UpstreamError) return String(outcome.status);
  const status = (outcome as { status?: unknown } | undefined)?.status;
  return typeof status === "number" ? String(status) : "unavailable";
}
