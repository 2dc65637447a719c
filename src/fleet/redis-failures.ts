/** How long one refusal keeps the shared state degraded: the fleet then tries Redis again. */
export const DEGRADED_MS = 5_000;
/** A kind of refusal is logged at most once in this period (with how many came since). */
export const LOG_PERIOD_MS = 60_000;

/**
 * The refusals a Redis or Valkey server answers with, by the first word of its error: anything
 * else it refuses counts as `ERR`, so the metric's labels stay a fixed vocabulary.
 */
const REFUSALS: ReadonlySet<string> = new Set([
  "ASK",
  "BUSY",
  "CLUSTERDOWN",
  "CROSSSLOT",
  "ERR",
  "EXECABORT",
  "LOADING",
  "MASTERDOWN",
  "MISCONF",
  "MOVED",
  "NOPERM",
  "NOREPLICAS",
  "NOSCRIPT",
  "OOM",
  "READONLY",
  "TRYAGAIN",
  "WRONGTYPE",
]);

/**
 * What one failed command was: a refusal (the server answered with an error, or the cluster
 * client gave up following redirections), or `timeout` / `unreachable`, which say only that the
 * server was slow or away: the connection's own state covers those.
 */
export interface RedisFailure {
  kind: string;
  refusal: boolean;
  message: string;
}

export function classifyRedisFailure(error: Error): RedisFailure {
  const message = error.message.split("\n", 1)[0]?.slice(0, 200) ?? "";
  if (error.name === "ReplyError") {
    const word = /^[A-Z]+/.exec(message)?.[0] ?? "ERR";
    return { kind: REFUSALS.has(word) ? word : "ERR", refusal: true, message };
  }
  // ioredis's cluster client gives up on a slot it keeps being sent away from.
  if (/Cluster redirections/i.test(message)) return { kind: "MOVED", refusal: true, message };
  if (/timed out/i.test(message)) return { kind: "timeout", refusal: false, message };
  return { kind: "unreachable", refusal: false, message };
}

/**
 * Every failed Redis command of the fleet, in one place: counted by kind (for
 * `voicegraph_redis_failures_total`), a refusal logged once per kind and `LOG_PERIOD_MS` at
 * warning level, and the shared state degraded for `DEGRADED_MS` after each refusal, so the
 * instance serves from its own state meanwhile instead of taking a refusal for a miss.
 */
export class RedisFailures {
  readonly #counts = new Map<string, number>();
  readonly #logged = new Map<string, { at: number; since: number }>();
  readonly #degradedListeners = new Set<(reason: string | undefined) => void>();
  readonly #warnListeners = new Set<(line: string) => void>();
  #last: { at: number; reason: string } | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  record(error: Error): RedisFailure {
    const failure = classifyRedisFailure(error);
    this.#counts.set(failure.kind, (this.#counts.get(failure.kind) ?? 0) + 1);
    if (!failure.refusal) return failure;
    const at = this.now();
    const wasDegraded = this.degraded() !== undefined;
    this.#last = { at, reason: `${failure.kind}: ${failure.message}` };
    this.#warnOnce(failure, at);
    if (!wasDegraded) for (const listener of this.#degradedListeners) listener(this.#last.reason);
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#recover(), DEGRADED_MS);
    this.#timer.unref();
    return failure;
  }

  /** Why the shared state is degraded now (the last refusal), or undefined. */
  degraded(): string | undefined {
    const last = this.#last;
    return last && this.now() - last.at < DEGRADED_MS ? last.reason : undefined;
  }

  /** Failed commands so far, by kind. */
  counts(): ReadonlyMap<string, number> {
    return this.#counts;
  }

  /** Told when the state turns degraded (with the reason) and when it recovers (undefined). */
  onDegradedChange(listener: (reason: string | undefined) => void): () => void {
    this.#degradedListeners.add(listener);
    return () => this.#degradedListeners.delete(listener);
  }

  /** Told each line to log at warning level (at most one per kind and period). */
  onWarning(listener: (line: string) => void): () => void {
    this.#warnListeners.add(listener);
    return () => this.#warnListeners.delete(listener);
  }

  close(): void {
    clearTimeout(this.#timer);
    this.#degradedListeners.clear();
    this.#warnListeners.clear();
  }

  #recover(): void {
    if (this.degraded() !== undefined) return;
    for (const listener of this.#degradedListeners) listener(undefined);
  }

  #warnOnce(failure: RedisFailure, at: number): void {
    const logged = this.#logged.get(failure.kind);
    if (logged && at - logged.at < LOG_PERIOD_MS) {
      logged.since++;
      return;
    }
    const more = logged?.since ? ` (${logged.since} more since the last line)` : "";
    this.#logged.set(failure.kind, { at, since: 0 });
    const line = `Redis refused a command (${failure.kind}): ${failure.message}${more}; serving with this instance's own state while it does`;
    for (const listener of this.#warnListeners) listener(line);
  }
}
