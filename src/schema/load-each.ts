import { createContextCache } from "@pothos/core";
import type { SchemaContext } from "./context.ts";

/**
 * A DataLoader batch function over a REST API without batch reads: one call per distinct key,
 * all in parallel, in key order, with the Error in place of a key whose call failed (so one
 * missing resource fails only its own field).
 */
export function loadEach<V>(
  keys: readonly string[],
  load: (key: string) => Promise<V>,
): Promise<Array<V | Error>> {
  // One key (a node by ID, most often): its call's answer, without a Promise.all around it.
  if (keys.length === 1) return load(keys[0] as string).then((value) => [value], asErrorIn);
  return Promise.all(keys.map((key) => load(key).catch(asError)));
}

const asError = (error: unknown): Error =>
  error instanceof Error ? error : new Error(String(error));
const asErrorIn = (error: unknown): Error[] => [asError(error)];

/** The value if it is one of the enum's values, else null: an unknown upstream value is not an error. */
export function enumOrNull<const T extends string>(values: readonly T[], value: unknown): T | null {
  return typeof value === "string" && (values as readonly string[]).includes(value)
    ? (value as T)
    : null;
}

/**
 * One promise per key and operation over a loader (an agent, a contact's stats): the items that
 * name one key share it, where a DataLoader cache hit costs each of them a promise, a closure and
 * the adoption of the cached promise. A failed load is handled here as well as where it is read,
 * so an item its page never resolves leaves no unhandled rejection.
 */
export function onePromisePerKey<V>(load: (context: SchemaContext, key: string) => Promise<V>) {
  const byKey = createContextCache((_context: SchemaContext) => new Map<string, Promise<V>>());
  return {
    of(context: SchemaContext, key: string): Promise<V> {
      const known = byKey(context);
      let value = known.get(key);
      if (value === undefined) {
        value = load(context, key);
        // Every caller awaits this promise and sees its failure; this only marks it handled for
        // the moment before the first caller does.
        value.catch(() => {});
        known.set(key, value);
      }
      return value;
    },
    /** The next read of `key` in this operation loads it again. */
    forget(context: SchemaContext, key: string): void {
      byKey(context).delete(key);
    },
  };
}
