import { randomUUID } from "node:crypto";
import type { Mark, PollerStore, PollerUpdate, WriteNotice } from "../../fleet/poller-store.ts";
import { createMemoryPollerStore, isNewer, LEASE_MARGIN_MS } from "../../fleet/poller-store.ts";
import { createMemoryWindowBudget, type WindowBudget } from "../../fleet/window-budget.ts";
import type { UpstreamClient, UpstreamRequest } from "../../upstream/client.ts";
import { isAnsweredLocally, UpstreamError } from "../../upstream/errors.ts";
import type { KeyHasher } from "../../upstream/key-memory.ts";
import { type RestOperation, readsChangedBy, routeOf } from "../../upstream/operations.ts";
import type { RateLimit } from "../../upstream/rate-limit.ts";
import type { FleetWriteVersion } from "../../upstream/write-version.ts";
import { GATEWAY_DEFAULTS } from "../settings/defaults.ts";
import { retryAfterSeconds } from "../shared/mask-error.ts";
import { KeyPace } from "./live-pace.ts";
import {
  answerOf,
  answerText,
  failureOf,
  type ReadAnswer,
  type ReadTemplate,
  refusalOf,
  requestDigest,
} from "./live-reads.ts";
import { shuttingDown } from "./stream-lifetime.ts";

export interface LiveHubOptions {
  /** The gateway's upstream (coalescing and key fairness included). */
  upstream: UpstreamClient;
  /** The gateway's naming of keys (createKeyHasher): pollers and paces are keyed by it. */
  keyHash: KeyHasher;
  /** POLL_INTERVAL_MS: the shortest time between two reads of one resource. */
  intervalMs: number;
  /** LIVE_RATE_LIMIT_PERCENT / 100: the part of each rate-limit window pollers may spend. */
  rateLimitShare: number;
  /** The pollers' shared state: Redis in a fleet (fleet/poller-lease.ts); default in process. */
  store?: PollerStore;
  /** The spending of each rate-limit window: the fleet's; default this instance's. */
  budget?: WindowBudget;
  /** A fleet's write version: a poller's answer serves a new live query only if none moved it. */
  writeVersion?: FleetWriteVersion;
  /** Consecutive failures (5xx, unreachable) a poller rides out before it ends its streams. */
  maxTransientFailures?: number;
  /** Told of every upstream call a poller made (metrics), once, on the instance that made it. */
  onCallDone?: (call: { route: string; status: string; seconds: number }) => void;
  /** Told when a poller starts: its request ID (sent upstream with every read) and instance. */
  onPollerStart?: (poller: { requestId: string; instanceId: string }) => void;
  now?: () => number;
}

/**
 * Told of a followed read: it changed, or it ended, with the error every stream of it ends
 * with (none: the gateway closed, and its streams simply complete).
 */
export interface ReadWatcher {
  changed(): void;
  ended(error?: Error): void;
}

/** A read as `watch` hands it back: the watcher stops following it with `unwatch`. */
export interface FollowedRead {
  unwatch(watcher: ReadWatcher): void;
}

/**
 * The one poller mechanism of live data, for `@live` queries and `conversationStatus` alike:
 * one poller per (key hash, GET) however many streams follow it, and across a fleet one reader
 * per (key hash, GET) through the store's lease. Each update is ordered by the store's mark and
 * delivered only when newer (fleet/poller-store.ts: isNewer); streams are told only when the
 * answer changed. A 401 or 403 ends every stream of the read at once; so do failures past the
 * tolerated count. A write, answered on any instance, makes the readers of what it changed read
 * again at once. Reads are paced by the one rule of live-pace.ts and counted once, here.
 */
export class LiveHub {
  readonly #pollers = new Map<string, ReadPoller>();
  readonly #keys = new Map<string, KeyPace>();
  readonly options: Required<
    Pick<LiveHubOptions, "maxTransientFailures" | "now" | "store" | "budget">
  > &
    LiveHubOptions;
  /** The live streams of this instance: each ends with the error a drain gives it. */
  readonly #streams = new Set<Pick<ReadWatcher, "ended">>();
  readonly #stopHearing: () => void;
  #shutDown = false;
  /** Counts the changes heard: live queries executed at one count read the same answers. */
  #changes = 0;
  /** Writes answered by this gateway (the write version when there is no fleet). */
  #writes = 0;

  constructor(options: LiveHubOptions) {
    this.options = {
      maxTransientFailures: GATEWAY_DEFAULTS.pollMaxTransientFailures,
      now: Date.now,
      store: options.store ?? createMemoryPollerStore({ intervalMs: options.intervalMs }),
      budget: options.budget ?? createMemoryWindowBudget(options.now),
      ...options,
    };
    this.#stopHearing = this.options.store.onWrite((notice) => this.#heardWrite(notice));
  }

  /** The changes heard so far (any key, any read). */
  get changes(): number {
    return this.#changes;
  }

  /** Whether a drain has begun: no live stream starts after. */
  get shuttingDown(): boolean {
    return this.#shutDown;
  }

  get pollerCount(): number {
    return this.#pollers.size;
  }

  get ownedPollerCount(): number {
    return this.pollersOf().owned;
  }

  /** The pollers here, and those this instance reads the upstream for: of one operation, or all. */
  pollersOf(row?: RestOperation): { total: number; owned: number } {
    let total = 0;
    let owned = 0;
    for (const poller of this.#pollers.values()) {
      if (row !== undefined && poller.row !== row) continue;
      total += 1;
      if (poller.owns) owned += 1;
    }
    return { total, owned };
  }

  /** A live stream, ended at a drain until it is dropped. */
  addStream(stream: Pick<ReadWatcher, "ended">): void {
    this.#streams.add(stream);
  }

  dropStream(stream: Pick<ReadWatcher, "ended">): void {
    this.#streams.delete(stream);
  }

  /** A drain: every live stream ends with SHUTTING_DOWN, and none starts after. */
  shutDown(): void {
    this.#shutDown = true;
    const error = shuttingDown();
    for (const stream of [...this.#streams]) stream.ended(error);
  }

  /** The write version now: what a read that starts now is stamped with. */
  versionNow(): string | undefined {
    return this.options.writeVersion ? this.options.writeVersion.view() : `local:${this.#writes}`;
  }

  /** Whether this instance read the upstream for this key's read at its last tick. */
  owns(hash: string, requestKey: string): boolean {
    return this.#pollers.get(`${hash}\n${requestKey}`)?.owns ?? false;
  }

  /** The newest answer of this key's read, when a poller holds one. */
  answer(hash: string, requestKey: string): ReadAnswer | undefined {
    return this.#pollers.get(`${hash}\n${requestKey}`)?.answer;
  }

  /**
   * The poller's answer only if it was read after every write answered so far (on any
   * instance): a live query that starts after a write never begins from older data.
   */
  async freshAnswer(hash: string, requestKey: string): Promise<ReadAnswer | undefined> {
    const poller = this.#pollers.get(`${hash}\n${requestKey}`);
    if (poller?.answer === undefined || poller.version === undefined) return undefined;
    const now = this.options.writeVersion
      ? await this.options.writeVersion.current()
      : `local:${this.#writes}`;
    return now !== undefined && now === poller.version ? poller.answer : undefined;
  }

  /**
   * Follows one read of one key: `seen` is the answer the caller just read itself, at write
   * version `version`. Returns the read, which the watcher leaves with `unwatch` (no closure per
   * watch: every open live query keeps its watches).
   */
  watch(
    authorization: string,
    requestKey: string,
    template: ReadTemplate,
    seen: { answer: ReadAnswer; version: string | undefined } | undefined,
    watcher: ReadWatcher,
  ): FollowedRead {
    const hash = this.options.keyHash(authorization);
    const id = `${hash}\n${requestKey}`;
    let poller = this.#pollers.get(id);
    if (!poller) {
      const pace = this.#paceOf(hash);
      const created = new ReadPoller(this, pace, authorization, hash, requestKey, template, seen);
      created.onChange = () => {
        this.#changes += 1;
      };
      created.onEmpty = () => {
        if (this.#pollers.get(id) === created) this.#pollers.delete(id);
        pace.pollers -= 1;
        if (pace.pollers === 0) this.#keys.delete(hash);
      };
      pace.pollers += 1;
      this.#pollers.set(id, created);
      poller = created;
    } else if (seen) {
      poller.offer(seen.answer, seen.version);
    }
    poller.add(watcher);
    return poller;
  }

  #paceOf(hash: string): KeyPace {
    let pace = this.#keys.get(hash);
    if (!pace) {
      pace = new KeyPace({
        share: this.options.rateLimitShare,
        intervalMs: this.options.intervalMs,
        budget: this.options.budget,
        now: this.options.now,
      });
      this.#keys.set(hash, pace);
    }
    return pace;
  }

  /** The wait of this key's pollers before their next read, as things stand; undefined: none. */
  pacing(authorization: string): number | undefined {
    return this.#keys.get(this.options.keyHash(authorization))?.delayMs();
  }

  /**
   * A write of this key was answered here: the fleet is told, and the reader of each read it
   * may have changed reads again now.
   */
  invalidate(
    req: Pick<UpstreamRequest, "authorization" | "method" | "path" | "operation" | "body">,
  ): void {
    this.#writes += 1;
    const keyHash = this.options.keyHash(req.authorization);
    void this.options.store.announce({ keyHash, reads: readsChangedBy(req) });
  }

  #heardWrite(notice: WriteNotice): void {
    const shared = this.options.store.shared();
    for (const poller of this.#pollers.values()) {
      if (poller.hash !== notice.keyHash || !poller.changedBy(notice)) continue;
      // In a fleet the owner reads for everyone; alone, this instance reads for itself.
      if (poller.owns || !shared) poller.now();
    }
  }

  close(): void {
    this.#stopHearing();
    for (const poller of [...this.#pollers.values()]) poller.end();
    this.options.store.close();
  }
}

class ReadPoller implements FollowedRead {
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
        // A poll is a read of the upstream's present: never the read cache's copy.
        cache: "bypass",
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
