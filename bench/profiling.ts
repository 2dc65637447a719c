import { DEMO_KEYS } from "../src/sandbox/seed-data.ts";
import { type Sandbox, startSandbox } from "../src/sandbox/server.ts";
import { DISTINCT_ORGANIZATIONS, distinctGraphql } from "./distinct.ts";
import { type LoadResult, load } from "./load.ts";
import { ONE_KEY_BOUNDS } from "./processes.ts";
import { DASHBOARD, DISTINCT, SINGLE } from "./queries.ts";

/** What `npm run bench:profile`, `bench:allocations`, `bench:pair` and `bench:floor` share. */

/**
 * Their load, by `BENCH_QUERY`: `distinct` (the default: every request in flight another key and
 * another agent, bench/distinct.ts), `single` (one key and one resource from every connection, a
 * figure of sharing) or `dashboard` (bench/queries.ts).
 */
export const BENCH_QUERY = (process.env.BENCH_QUERY ?? "distinct") as
  | "distinct"
  | "single"
  | "dashboard";
if (!["distinct", "single", "dashboard"].includes(BENCH_QUERY)) {
  throw new Error("BENCH_QUERY is one of distinct, single, dashboard");
}

/**
 * What a gateway under that load is started with beside its URL: its default settings for the
 * distinct load (one call per key at a time); for one key's load, the bounds raised as `npm run
 * bench` raises them.
 */
export const BENCH_GATEWAY_ENV: Record<string, string> =
  BENCH_QUERY === "distinct" ? {} : { MAX_UPSTREAM_CALLS: "1000", ...ONE_KEY_BOUNDS };

/** The sandbox they load, at no latency, with the distinct load's organizations. */
export function benchSandbox(): Promise<Sandbox> {
  return startSandbox({ rateLimit: 1e9, extraOrganizations: DISTINCT_ORGANIZATIONS });
}

/** `BENCH_QUERY`'s load at 16 connections for `seconds`. */
export function loadBench(url: string, seconds: number, connections = 16): Promise<LoadResult> {
  if (BENCH_QUERY === "distinct") {
    return load({ url, connections, seconds, perConnection: distinctGraphql(DISTINCT) });
  }
  return loadSingle(url, seconds, BENCH_QUERY === "dashboard" ? DASHBOARD : SINGLE, connections);
}

/** One key and one query from every connection: 16 connections for `seconds`. */
export function loadSingle(
  url: string,
  seconds: number,
  query = SINGLE,
  connections = 16,
): Promise<LoadResult> {
  return load({
    url: `${url}/graphql`,
    connections,
    seconds,
    method: "POST",
    headers: { authorization: `Bearer ${DEMO_KEYS.acme}`, "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
}

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

/** A frame's file, short: from its package name, or from `src/`/`bench/` for ours. */
export function sourceOf(frame: CallFrame): string {
  return frame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/(src|bench)\//, "$1/");
}

/** A frame as the reports name it: function, short file and line. */
export function frameName(frame: CallFrame): string {
  return `${frame.functionName || "(anonymous)"} ${sourceOf(frame)}:${frame.lineNumber + 1}`;
}

/** The `n` largest entries, each as its share of `total`. */
export function topShares(map: Map<string, number>, total: number, n: number): string[] {
  return [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key, value]) => `${((100 * value) / total).toFixed(1).padStart(5)} %  ${key}`);
}
