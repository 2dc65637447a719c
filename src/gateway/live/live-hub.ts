import type { PollerStore, WriteNotice } from "../../fleet/poller-store.ts";
import { createMemoryPollerStore } from "../../fleet/poller-store.ts";
import { createMemoryWindowBudget, type WindowBudget } from "../../fleet/window-budget.ts";
import type { UpstreamClient, UpstreamRequest } from "../../upstream/client.ts";
import type { KeyHasher } from "../../upstream/key-memory.ts";
import { type RestOperation, readsChangedBy } from "../../upstream/operations.ts";
import type { FleetWriteVersion } from "../../upstream/write-version.ts";
import { GATEWAY_DEFAULTS } from "../settings/defaults.ts";
import { KeyPace } from "./live-pace.ts";
import type { ReadAnswer, ReadTemplate } from "./live-reads.ts";
import { ReadPoller } from "./read-poller.ts";
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
