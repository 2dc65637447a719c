import { describe, expect, it } from "vitest";
import { startDeadline } from "../../src/upstream/call-timing.ts";

describe("an upstream call's deadline", () => {
  it("aborts with the caller's reason when the caller aborts, and is no timeout", () => {
    const caller = new AbortController();
    const deadline = startDeadline(60_000, caller.signal);
    const told: unknown[] = [];
    deadline.follow((reason) => told.push(reason));
    const reason = new Error("client went away");
    caller.abort(reason);
    expect(deadline.aborted).toBe(true);
    expect(deadline.reason).toBe(reason);
    expect(told).toEqual([reason]);
    expect(deadline.timedOut.aborted).toBe(false);
    deadline.dispose();
  });

  it("starts aborted when the caller already is", () => {
    const caller = new AbortController();
    const reason = new Error("gone before");
    caller.abort(reason);
    const deadline = startDeadline(60_000, caller.signal);
    expect(deadline.aborted).toBe(true);
    expect(deadline.reason).toBe(reason);
    deadline.dispose();
  });

  it("times out with a reason of its own, the caller untouched", async () => {
    for (const caller of [new AbortController(), undefined]) {
      const deadline = startDeadline(5, caller?.signal);
      const reason = await new Promise((resolve) => deadline.follow(resolve));
      expect(deadline.timedOut.aborted).toBe(true);
      expect(deadline.reason).toBe(reason);
      expect(deadline.timedOut.reason).toBe(reason);
      expect((reason as Error).name).toBe("AbortError");
      expect(caller?.signal.aborted ?? false).toBe(false);
      deadline.dispose();
    }
  });

  it("tells a follower once, and no follower that stopped following", () => {
    const caller = new AbortController();
    const deadline = startDeadline(60_000, caller.signal);
    const told: string[] = [];
    deadline.follow(() => told.push("first"));
    deadline.unfollow();
    deadline.follow(() => told.push("second"));
    caller.abort(new Error("gone"));
    caller.abort(new Error("again"));
    expect(told).toEqual(["second"]);
    deadline.dispose();
  });

  it("leaves nothing on the caller's signal once disposed", () => {
    const caller = new AbortController();
    const deadline = startDeadline(60_000, caller.signal);
    deadline.dispose();
    caller.abort();
    expect(deadline.aborted).toBe(false);
    expect(deadline.timedOut.aborted).toBe(false);
  });

  it("ends a backoff's sleep with the reason, or lets it run its time", async () => {
    const caller = new AbortController();
    const deadline = startDeadline(60_000, caller.signal);
    await expect(deadline.sleep(1)).resolves.toBeUndefined();
    const reason = new Error("gone while waiting");
    const waiting = deadline.sleep(60_000);
    caller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    await expect(deadline.sleep(1)).rejects.toBe(reason);
    deadline.dispose();
  });
});
