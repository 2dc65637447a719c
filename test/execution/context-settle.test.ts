import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import {
  type ContextDependencies,
  createContext,
  settle,
} from "../../src/gateway/execution/context.ts";
import { createKeyHasher } from "../../src/upstream/key-memory.ts";

// A context kept past its answer (a live query's first, which yoga and envelop keep for as long
// as the stream is open) lets go of its own operation's state, its hold on the caller included.

const dependencies = {
  upstream: { reading: () => undefined, knowsKey: () => false, request: () => undefined },
  keyHash: createKeyHasher(),
  conversationStatusHub: {},
  cursorKey: Buffer.alloc(32),
  maxUpstreamCalls: 10,
} as unknown as ContextDependencies;

describe("an operation's context", () => {
  it("aborts its operation when the caller goes away, with the caller's reason", () => {
    const caller = new AbortController();
    const context = createContext(dependencies, {
      authorization: "k",
      requestId: "r",
      signal: caller.signal,
    });
    caller.abort(new Error("gone"));
    expect(context.operation.reason).toEqual(new Error("gone"));
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
  });

  it("once settled, keeps no listener on the caller's signal nor its calls, usage and loads", () => {
    const caller = new AbortController();
    const context = createContext(dependencies, {
      authorization: "k",
      requestId: "r",
      signal: caller.signal,
    });
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(1);
    settle(context);
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
    const held = context as unknown as Record<string, unknown>;
    for (const field of ["api", "usage", "operation", "reads"]) expect(held[field]).toBeUndefined();
    // What a later execution's fresh context takes from it is still there.
    expect(context.authorization).toBe("k");
    expect(context.requestId).toBe("r");
    settle(context);
  });
});
