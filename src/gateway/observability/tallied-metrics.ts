import { Counter, type Histogram, type Registry } from "prom-client";

/**
 * Counters and histograms as the gateway counts into them: tallied here per label set, read
 * through prom-client's registry. prom-client checks and hashes the labels on every `inc` and
 * `observe` (and a histogram's timer makes closures and copies), which came to a few per cent
 * of a request's CPU. The tallies are keyed by label values, which are fixed vocabularies, so
 * they stay few.
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
  readonly #fresh: () => T;
  #root = new Map<string, unknown>();
  #unlabelled: T | undefined;

  constructor(labelNames: readonly L[], fresh: () => T) {
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
    const tally = this.#fresh();
    this.all.push({ labels: { ...labels }, tally });
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

interface Buckets {
  /** Observations per bucket, not cumulative: `counts[i]` fell in (bounds[i-1], bounds[i]]. */
  counts: number[];
  sum: number;
  count: number;
}

/**
 * A histogram registered as a metric of its own, answering the registry what prom-client's
 * Histogram (without exemplars) answers for the same observations: the same samples, labels and
 * order, the same sum (added in the same order). prom-client has no way to add counts to a
 * bucket, so the tallies cannot be handed to one as the counters' are.
 */
export function talliedHistogram<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
  bounds: readonly number[],
): TalliedHistogram<L> {
  const tallies = new Tallies<L, Buckets>(labelNames, () => ({
    counts: bounds.map(() => 0),
    sum: 0,
    count: 0,
  }));
  const bucketName = `${name}_bucket`;
  /** prom-client's samples: `{le}` with the label set beside it, or merged into one (`splay`). */
  const values = (splay: boolean) =>
    tallies.all.flatMap(({ labels, tally }) => {
      const sample = (
        own: Record<string, unknown>,
        value: number,
        metricName: string,
        exemplar: null | undefined,
      ) =>
        splay
          ? { value, metricName, exemplar, labels: { ...own, ...labels } }
          : { labels: own, sharedLabels: labels, value, metricName, exemplar };
      let below = 0;
      const buckets = bounds.map((le, i) => {
        below += tally.counts[i] ?? 0;
        return sample({ le }, below, bucketName, null);
      });
      return [
        ...buckets,
        sample({ le: "+Inf" }, tally.count, bucketName, null),
        sample({}, tally.sum, `${name}_sum`, undefined),
        sample({}, tally.count, `${name}_count`, undefined),
      ];
    });
  const read = (splay: boolean) =>
    Promise.resolve({
      name,
      help,
      type: "histogram",
      values: values(splay),
      aggregator: "sum",
    }) as unknown as ReturnType<Histogram<L>["get"]>;
  const metric = {
    name,
    help,
    type: "histogram",
    aggregator: "sum",
    get: () => read(true),
    getForPromString: () => read(false),
    reset: () => tallies.clear(),
  };
  registry.registerMetric(metric as unknown as Histogram<L>);
  return {
    observe(labels, value) {
      if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
      const tally = tallies.of(labels);
      // prom-client's findBound: the first bound at or above; above the last, +Inf alone.
      for (let i = 0; i < bounds.length; i++) {
        if (value <= (bounds[i] as number)) {
          tally.counts[i] = (tally.counts[i] ?? 0) + 1;
          break;
        }
      }
      tally.sum += value;
      tally.count += 1;
    },
    get: metric.get,
  };
}
