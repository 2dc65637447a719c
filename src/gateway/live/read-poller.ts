import { randomUUID } from "node:crypto";
import type { Mark, PollerStore, PollerUpdate, WriteNotice } from "../../fleet/poller-store.ts";
import { isNewer, LEASE_MARGIN_MS } from "../../fleet/poller-store.ts";
import { isAnsweredLocally, UpstreamError } from "../../upstream/errors.ts";
import { type RestOperation, routeOf } from "../../upstream/operations.ts";
import type { RateLimit } from "../../upstream/rate-limit.ts";
import { retryAfterSeconds } from "../shared/mask-error.ts";
import type { FollowedRead, LiveHub, ReadWatcher } from "./live-hub.ts";
import type { KeyPace } from "./live-pace.ts";
import {
  answerOf,
  answerText,
  failureOf,
  type ReadAnswer,
  type ReadTemplate,
  refusalOf,
  requestDigest,
} from "./live-reads.ts";

/**
 * One (key hash, GET) that LiveHub keeps followed: its ticks, its reads of the upstream (or the
 * fleet's owner's, through the store), its failures and the watchers it tells of each change.
 */
export class ReadPoller implements FollowedRead {
  readonly #watchers = new Set<ReadWatcher>();
  readonly #hub: LiveHub;
  readonly #pace: KeyPace;
  readonly #authorization: string;
  readonly #template: ReadTemplate;
  readonly #watch: string;
  readonly #abort = new AbortController();
  readonly #requestId = `live-${randomUUID()}`;
  readonly hash: string;
  answer: ReadAnswer | undefined;
  /** The operation it reads, where known (metrics count the pollers of operation 8 apart). */
  get row(): RestOperation | undefined {
    return this.#template.operation?.row;
  }
  /** The write version the answer was read at. */
  version: string | undefined;
  #text: string | undefined;
  /** The newest update delivered here, in the store's order. */
  #mark: Mark | undefined;
  /** Whether the store was shared when the mark was taken: marks of two stores do not compare. */
  #sharedMode: boolean | undefined;
  #listening = false;
  #timer: NodeJS.Timeout | undefined;
  #busy = false;
  #again = false;
  #ended = false;
  #failures = 0;
  /** Whether this instance read the upstream at its last tick. */
  owns = false;
  onEmpty: () => void = () => undefined;
  onChange: () => void = () => undefined;

  constructor(
    hub: LiveHub,
    pace: KeyPace,
    authorization: string,
    hash: string,
    requestKey: string,
    template: ReadTemplate,
    seen: { answer: ReadAnswer; version: string | undefined } | undefined,
  ) {
    this.#hub = hub;
    this.#pace = pace;
    this.#authorization = authorization;
    this.hash = hash;
    this.#template = template;
    this.#watch = `${hash}:${requestDigest(requestKey)}`;
    if (seen) {
      this.answer = seen.answer;
      this.version = seen.version;
      this.#text = answerText(seen.answer);
    }
    hub.options.onPollerStart?.({
      requestId: this.#requestId,
      instanceId: hub.options.store.instanceId,
    });
    void this.#start();
  }

  get #store(): PollerStore {
    return this.#hub.options.store;
  }

  add(watcher: ReadWatcher): void {
    this.#watchers.add(watcher);
  }

  /** The watcher no longer follows this read: the poller ends with its last watcher. */
  unwatch(watcher: ReadWatcher): void {
    if (!this.#watchers.delete(watcher)) return;
    if (this.#watchers.size === 0) this.end();
  }

  /** An answer a live query read itself: kept when it differs (it is at least as new). */
  offer(answer: ReadAnswer, version: string | undefined): void {
    this.#deliver(answer, version);
  }

  /** Whether a write of its key may have changed this read. */
  changedBy(notice: WriteNotice): boolean {
    const call = this.#template.operation;
    if (!call) return true;
    const route = routeOf(call.row);
    return notice.reads.some(
      (change) =>
        change.route === route &&
        (change.ids === undefined || change.ids.every((id, i) => call.ids[i] === id)),
    );
  }

  /** Reads again at once (a write was answered), outside the lease's schedule. */
  now(): void {
    if (this.#ended) return;
    if (this.#busy) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    void this.#urgent();
  }

  /** Ends the poller and every stream that follows it (with the error, when there is one). */
  end(error?: Error): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#timer);
    this.#abort.abort();
    if (this.#listening) this.#store.leave(this.#watch);
    this.onEmpty();
    for (const watcher of [...this.#watchers]) watcher.ended(error);
  }

  /**
   * A key the upstream has not accepted lately is read outside the fleet's lease: a key it
   * refuses leaves nothing in the store.
   */
  #proven(): boolean {
    return this.#hub.options.upstream.knowsKey?.(this.hash) ?? true;
  }

  async #start(): Promise<void> {
    if (this.#proven()) {
      // Not awaited: a subscription waits for its connection, and a follower also finds each
      // update at its tick, so nothing hangs on a link that is down.
      this.#listen();
      const latest = await this.#store.latest(this.#watch);
      if (this.#ended) return;
      if (latest && this.answer !== undefined) {
        // The caller's own read is at least as new: it starts from the fleet's place, quietly.
        this.#noteMode();
        if (isNewer(latest, this.#mark)) this.#mark = latest;
      } else if (latest) {
        this.#hear(latest);
      }
    }
    this.#schedule(this.answer === undefined ? 0 : this.#hub.options.intervalMs);
  }

  #listen(): void {
    this.#listening = true;
    void this.#store.listen(this.#watch, (update) => this.#hear(update));
  }

  #schedule(delayMs: number): void {
    if (this.#ended) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#tick(), delayMs);
  }

  async #tick(): Promise<void> {
    if (this.#ended || this.#busy) return;
    this.#busy = true;
    let next = this.#hub.options.intervalMs;
    try {
      if (!this.#proven()) {
        this.owns = true;
        next = await this.#read(undefined);
        return;
      }
      // A subscription lost with its connection is made again before the store is relied on.
      if (!this.#store.listening(this.#watch)) this.#listen();
      const tick = await this.#store.tick(this.#watch, 2 * next + LEASE_MARGIN_MS);
      if (this.#ended) return;
      this.#noteMode();
      if (tick.role === "follower") {
        this.owns = false;
        // What the owner published is found here too, should its message have been missed.
        if (tick.latest) this.#hear(tick.latest);
        return;
      }
      this.owns = true;
      next = await this.#read(tick.mark);
    } finally {
      this.#busy = false;
      this.#afterwards(next);
    }
  }

  async #urgent(): Promise<void> {
    this.#busy = true;
    let next = this.#hub.options.intervalMs;
    try {
      const mark = this.#proven() ? await this.#store.mark(this.#watch) : undefined;
      if (!this.#ended) next = await this.#read(mark);
    } finally {
      this.#busy = false;
      this.#afterwards(next);
    }
  }

  #afterwards(delayMs: number): void {
    if (this.#ended) return;
    if (this.#again) {
      this.#again = false;
      void this.#urgent();
      return;
    }
    this.#schedule(delayMs);
  }

  /**
   * One read of the upstream under `mark` (none: outside the store), published and delivered
   * when nothing newer was; the wait before the next.
   */
  async #read(mark: Mark | undefined): Promise<number> {
    const wait = await this.#pace.admit();
    if (wait > 0 || this.#ended) return wait;
    const version = this.#hub.versionNow();
    const outcome = await this.#call();
    if (this.#ended) return 0;
    const answer = answerOf(outcome);
    if (answer === undefined) return this.#failed(outcome);
    this.#failures = 0;
    if (!mark) {
      this.#deliver(answer, version);
    } else {
      const update: PollerUpdate & { version?: string } = {
        ...mark,
        from: this.#store.instanceId,
        answer,
        ...(version === undefined ? {} : { version }),
      };
      // Not published: a newer read was, and its update reaches this instance too.
      if (await this.#store.publish(this.#watch, update)) this.#hear(update);
    }
    return this.#pace.delayMs();
  }

  /** A read that said nothing of the resource: ridden out, up to the tolerated count. */
  #failed(outcome: unknown): number {
    if (outcome instanceof UpstreamError && outcome.status === 429) {
      this.#pace.pause(retryAfterSeconds(outcome) * 1000);
      return this.#pace.delayMs();
    }
    this.#failures += 1;
    if (this.#failures > this.#hub.options.maxTransientFailures) {
      this.end(failureOf(outcome));
      return 0;
    }
    return this.#pace.delayMs();
  }

  async #call(): Promise<unknown> {
    const started = performance.now();
    let joined = false;
    let rateLimit: RateLimit | undefined;
    let outcome: unknown;
    try {
      outcome = await this.#hub.options.upstream.request({
        method: "GET",
        ...this.#template,
        authorization: this.#authorization,
        keyHash: this.hash,
        requestId: this.#requestId,
        signal: this.#abort.signal,
        // A poll is a read of the upstream's present: never the read cache's copy; and its lease
        // already makes it the fleet's one read, so it is no fleet flight (sharing.ts).
        cache: "bypass",
        leased: true,
        onRateLimit: (figures) => {
          rateLimit = figures;
        },
        onShared: () => {
          joined = true;
        },
      });
    } catch (error) {
      outcome = error;
    }
    await this.#pace.landed(rateLimit);
    if (!joined && !isAnsweredLocally(outcome)) {
      this.#hub.options.onCallDone?.({
        route: this.#template.operation ? routeOf(this.#template.operation.row) : "GET (unknown)",
        status: outcomeStatus(outcome),
        seconds: (performance.now() - started) / 1000,
      });
    }
    return outcome;
  }

  /** The store's mode changed (Redis went or came back): its next update starts the order anew. */
  #noteMode(): void {
    const shared = this.#store.shared();
    if (shared !== this.#sharedMode) {
      this.#sharedMode = shared;
      this.#mark = undefined;
    }
  }

  #hear(update: PollerUpdate & { version?: string }): void {
    if (this.#ended) return;
    this.#noteMode();
    if (!isNewer(update, this.#mark)) return;
    this.#mark = { epoch: update.epoch, seq: update.seq };
    this.#deliver(update.answer as ReadAnswer, update.version);
  }

  /** A newer answer: kept, and its streams told when it changed; a refusal ends them. */
  #deliver(answer: ReadAnswer, version: string | undefined): void {
    const text = answerText(answer);
    this.version = version;
    if (text === this.#text) return;
    this.answer = answer;
    this.#text = text;
    // A refusal ends the streams with it at once: executing them again would call the upstream.
    const refusal = refusalOf(answer);
    if (refusal) {
      this.end(refusal);
      return;
    }
    this.onChange();
    for (const watcher of [...this.#watchers]) watcher.changed();
  }
}

function outcomeStatus(outcome: unknown): string {
  if (outcome instanceof UpstreamError) return String(outcome.status);
  const status = (outcome as { status?: unknown } | undefined)?.status;
  return typeof status === "number" ? String(status) : "unavailable";
}
