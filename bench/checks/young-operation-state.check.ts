import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

/**
 * An operation's loaders and their cached answers die in the young generation once the operation
 * is over. Pothos keeps them per context (createContextCache); kept in a WeakMap, as Pothos
 * ships it, V8's scavenger held them until a full collection, so every request's state was
 * promoted to the old generation (patches/@pothos+core+*.patch). The child process primes 20
 * operations' Agent loaders with 1 000 objects each (the dataloader plugin's caches) and makes
 * one read of our own per operation (read-once.ts), drops them, and runs two young collections:
 * what is still in the heap is what those could not free. It also counts the full collections in
 * between, which would free the held state too and so hide it. Counting collections is the
 * bench's (a busy machine's collector runs on its own schedule), not `npm test`'s.
 */
const CHILD = `
import { constants, PerformanceObserver } from "node:perf_hooks";
import { initContextCache } from "@pothos/core";
import { Agent } from "./src/schema/agent.ts";
import { readOnce } from "./src/schema/read-once.ts";
let full = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.detail?.kind !== constants.NODE_PERFORMANCE_GC_MINOR) full += 1;
  }
}).observe({ entryTypes: ["gc"] });
setTimeout(() => {
  globalThis.gc({ type: "minor" });
  globalThis.gc({ type: "minor" });
  const before = process.memoryUsage().heapUsed;
  full = 0;
  for (let i = 0; i < 20; i++) {
    // An operation's context as the gateway makes it: its own cache object (context.ts).
    const context = { ...initContextCache(), operation: i };
    const loader = Agent.getDataloader(context);
    for (let j = 0; j < 1000; j++) loader.prime("agent-" + j, { id: "agent-" + j, name: "n" + j });
    void readOnce(context, "list", async () => Array.from({ length: 500 }, (_, j) => ({ j })));
  }
  setTimeout(() => {
    globalThis.gc({ type: "minor" });
    globalThis.gc({ type: "minor" });
    const keptBytes = process.memoryUsage().heapUsed - before;
    // The observer is told of collections asynchronously.
    setTimeout(() => console.log(JSON.stringify({ keptBytes, full })), 10);
  }, 10);
}, 10);
`;

describe("an operation's state after it ends", () => {
  it("is freed by young collections, not held until a full one", () => {
    const child = spawnSync(
      process.execPath,
      ["--expose-gc", "--max-semi-space-size=16", "--input-type=module", "-e", CHILD],
      { encoding: "utf8", timeout: 60_000 },
    );
    expect(child.stderr).toBe("");
    const { keptBytes, full } = JSON.parse(child.stdout) as { keptBytes: number; full: number };
    expect(full).toBe(0);
    // Held, the primed agents and the reads would all still be here: about 4.6 MB.
    expect(keptBytes).toBeLessThan(1_000_000);
  });
});
