import { Counter, Histogram, type Registry } from "prom-client";

/**
 * Counters and histograms as the gateway counts into them: prom-client's own, fed at each read.
 * prom-client checks and hashes the labels on every `inc` and `observe`, which came to a few
 * per cent of a request's CPU: the request path only tallies (a counter) or keeps a number (a
 * histogram) per label set, found by label values, which are fixed vocabularies, so they stay few.
 */

/** A counter as the gateway counts into it: label values in, read through prom-client's `get`. */
export interface TalliedCounter<L extends string> {
  inc(labels?: Partial<Record<L, string>>, count?: number): void;
  get(): ReturnType<Counter<L>["get"]>;
}

/** A histogram as the gateway observes into it, read as prom-client's own would be. */
export interface TalliedHistogram<L extends string> {
  observe(labels: Partial<Record<L, string>>, value: number): void;
  get(): ReturnType<Histogram<L>["get"]>;
}

/** The tallies of one metric, found by walking one level of maps per label: no key is built. */
class Tallies<L extends string, T> {
  readonly all: Array<{ labels: Partial<Record<L, string>>; tally: T }> = [];
  readonly #labelNames: readonly L[];
  readonly #fresh: (labels: Partial<Record<L, string>>) => T;
  #root = new Map<string, unknown>();
  #unlabelled: T | undefined;

  constructor(labelNames: readonly L[], fresh: (labels: Partial<Record<L, string>>) => T) {
    this.#labelNames = labelNames;
    this.#fresh = fresh;
  }

  of(labels: Partial<Record<L, string>>): T {
    const names = this.#labelNames;
    if (names.length === 0) {
      this.#unlabelled ??= this.#add(labels);
      return this.#unlabelled;
    }
    let level = this.#root;
    const last = names.length - 1;
    for (let i = 0; i < last; i++) {
      const value = labels[names[i] as L] ?? "";
      let next = level.get(value) as Map<string, unknown> | undefined;
      if (next === undefined) {
        next = new Map();
        level.set(value, next);
      }
      level = next;
    }
    const value = labels[names[last] as L] ?? "";
    let tally = level.get(value) as T | undefined;
    if (tally === undefined) {
      tally = this.#add(labels);
      level.set(value, tally);
    }
    return tally;
  }

  clear(): void {
    this.all.length = 0;
    this.#root = new Map();
    this.#unlabelled = undefined;
  }

  #add(labels: Partial<Record<L, string>>): T {
    const own = { ...labels };
    const tally = this.#fresh(own);
    this.all.push({ labels: own, tally });
    return tally;
  }
}

/**
 * A prom-client Counter whose increments are tallied and handed to it whenever it is read (its
 * `collect`, which every scrape and `get` runs first).
 */
export function talliedCounter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
): TalliedCounter<L> {
  const tallies = new Tallies<L, { count: number }>(labelNames, () => ({ count: 0 }));
  const counter = new Counter<L>({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      for (const { labels, tally } of tallies.all) {
        if (tally.count === 0) continue;
        this.inc(labels, tally.count);
        tally.count = 0;
      }
    },
  });
  return {
    inc(labels = {}, count = 1) {
      tallies.of(labels).count += count;
    },
    get: () => counter.get(),
  };
}

/** Observations of one label set not yet handed to the histogram, and its child that takes them. */
interface Pending {
  values: number[];
  observe: (value: number) => void;
}

/** Observations one label set holds before they are handed over without waiting for a scrape. */
const MOST_PENDING = 1024;

/**
 * prom-client's own Histogram, whose observations are kept as numbers and handed to it whenever
 * it is read (its `collect`, which every scrape and `get` runs first), or once a label set holds
 * MOST_PENDING of them: the request path pushes a number, and prom-client keeps the buckets,
 * the sums and the exposition.
 */
export function talliedHistogram<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
  bounds: readonly number[],
): TalliedHistogram<L> {
  const hand = (pending: Pending) => {
    for (const value of pending.values) pending.observe(value);
    pending.values.length = 0;
  };
  // Each label set's child is made once: prom-client checks its labels then, not per value.
  const tallies = new Tallies<L, Pending>(labelNames, (labels) => ({
    values: [],
    observe: histogram.labels(labels as Partial<Record<L, string | number>>).observe,
  }));
  // A reset drops what is pending too: a scrape after it shows nothing observed before it. (The
  // constructor resets once, before anything is pending.)
  class PendingHistogram extends Histogram<L> {
    override reset(): void {
      tallies.clear();
      super.reset();
    }
  }
  const histogram: Histogram<L> = new PendingHistogram({
    name,
    help,
    labelNames,
    buckets: [...bounds],
    registers: [registry],
    collect() {
      for (const { tally } of tallies.all) hand(tally);
    },
  });
  return {
    observe(labels, value) {
      if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
      const pending = tallies.of(labels);
      pending.values.push(value);
      if (pending.values.length >= MOST_PENDING) hand(pending);
    },
    get: () => histogram.get(),
  };
}
