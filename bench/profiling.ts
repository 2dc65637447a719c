import { DEMO_KEYS } from "../src/sandbox/seed-data.ts";
import { type LoadResult, load } from "./load.ts";
import { SINGLE } from "./queries.ts";

/** What `npm run bench:profile` and `npm run bench:allocations` share: their load and their report. */

/** The single-resource load both profile (or another query's): 16 connections for `seconds`. */
export function loadSingle(url: string, seconds: number, query = SINGLE): Promise<LoadResult> {
  return load({
    url: `${url}/graphql`,
    connections: 16,
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
