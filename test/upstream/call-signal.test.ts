import { describe, expect, it } from "vitest";
import { CallSignal, followAbort, unfollowAbort } from "../../src/upstream/call-signal.ts";

describe("a shared call's signal", () => {
  it("aborts once, with the reason given, telling each follower once", () => {
    const signal = new CallSignal();
    const told: string[] = [];
    followAbort(signal, () => told.push("one"));
    followAbort(signal, () => told.push("two"));
    const reason = new Error("every waiter left");
    signal.abort(reason);
    signal.abort(new Error("again"));
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
    expect(told).toEqual(["one", "two"]);
  });

  it("aborts with an AbortError when given no reason, as AbortController does", () => {
    const signal = new CallSignal();
    const controller = new AbortController();
    signal.abort();
    controller.abort();
    expect((signal.reason as DOMException).name).toBe((controller.signal.reason as Error).name);
    expect(signal.reason).toBeInstanceOf(DOMException);
  });

  it.each([
    ["a shared call's signal", () => new CallSignal()],
    ["an AbortSignal", () => new AbortController()],
  ])("tells no follower that stopped following (%s)", (_name, make) => {
    const source = make();
    const signal = source instanceof CallSignal ? source : source.signal;
    const told: string[] = [];
    const left = () => told.push("left");
    followAbort(signal, left);
    followAbort(signal, () => told.push("stayed"));
    unfollowAbort(signal, left);
    source.abort();
    expect(told).toEqual(["stayed"]);
  });
});
