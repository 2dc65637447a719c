import { createContextCache } from "@pothos/core";
import type { SchemaContext } from "./context.ts";

/**
 * Reads that no node loader covers (the organization, the tool catalog, list pages), keyed by
 * what they ask upstream: like the DataLoaders, the cache lives in the operation's context, so
 * the same request made twice in one operation (aliases, or an agent's conversations and the
 * list filtered by that agent) goes upstream once, and nothing outlives the operation.
 */
const readsOf = createContextCache(
  (_context: SchemaContext) => new Map<string, Promise<unknown>>(),
);

export function readOnce<T>(
  context: SchemaContext,
  key: string,
  read: () => Promise<T>,
): Promise<T> {
  const reads = readsOf(context);
  let pending = reads.get(key) as Promise<T> | undefined;
  if (pending === undefined) {
    pending = read();
    reads.set(key, pending);
  }
  return pending;
}

/** The cache key of a list request: its name and its defined parameters, in a fixed order. */
export function listKey(list: string, params: object): string {
  const defined = Object.entries(params)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${list}?${JSON.stringify(defined)}`;
}
