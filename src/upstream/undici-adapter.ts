import { createRequire } from "node:module";
import type { Pool } from "undici";

/**
 * The one file that reaches into undici (pinned in package.json to the version below): everything
 * else uses its public face, `Pool` and `dispatcher.dispatch(options, handler)` with the documented
 * handler callbacks. test/upstream/undici-adapter.test.ts fails, naming this adapter, when an
 * upgrade moves what it relies on.
 */
export const UNDICI_ADAPTER = { name: "undici-adapter", writtenAgainst: "8.12.4" } as const;

/** Where undici keeps its Pool class: a file of its own, not an exported path. */
export const UNDICI_POOL_MODULE = "undici/lib/dispatcher/pool.js";

/**
 * undici's Pool from its own module: undici's index loads every dispatcher, mock, cache and the
 * whole fetch implementation with it, about 2.8 MB of heap a gateway never uses. The same class
 * as the package root's `Pool`.
 */
export function createPool(origin: string, options: Pool.Options): Pool {
  const PoolClass = createRequire(import.meta.url)(UNDICI_POOL_MODULE) as typeof Pool;
  return new PoolClass(origin, options);
}
