import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

/**
 * An operation's loaders and their cached answers die in the young generation once the operation
 * is over. Pothos keeps them per context (createContextCache); kept in a WeakMap, as Pothos
 * ships it, V8's scavenger held them until a full collection, so every request's state was
 * promoted to the old generation (patches/@pothos+core+*.patch). The child process primes 50
 * operations' Agent loaders with 2 000 objects each, drops them, and runs two young collections
 * only: what is still in the heap is what those collections could not free.
 */
const CHILD = `
import { initContextCache } from "@pothos/core";
import { Agent } from "./src/schema/agent.ts";
import { loadEach } from "./src/schema/load-each.ts";
setTimeout(() => {
  globalThis.gc({ type: "minor" });
  globalThis.gc({ type: "minor" });
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 50; i++) {
    // An operation's context as the gateway makes it: its own cache object (context.ts).
    const context = { ...initContextCache(), operation: i };
    const loader = Agent.getDataloader(context);
    for (let j = 0; j < 2000; j++) loader.prime("agent-" + j, { id: "agent-" + j, name: "n" + j });
    void loadEach(["a"], async (key) => key);
  }
  setTimeout(() => {
    globalThis.gc({ type: "minor" });
    globalThis.gc({ type: "minor" });
    console.log(JSON.stringify({ keptBytes: process.memoryUsage().heapUsed - before }));
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
    const { keptBytes } = JSON.parse(child.stdout) as { keptBytes: number };
    // Held, the 50 × 2 000 primed agents would all still be here: about 20 MB.
    expect(keptBytes).toBeLessThan(1_000_000);
  });
});
