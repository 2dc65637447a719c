import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { startDeadline } from "../../src/upstream/call-timing.ts";

describe("an upstream call's deadline", () => {
  it("aborts with the caller's reason when the caller aborts, and is no timeout", () => {
    const caller = new AbortController();
    const deadline = startDeadline(60_000, caller.signal);
    const reason = new Error("client went away");
    caller.abort(reason);
    expect(deadline.combined.aborted).toBe(true);
    expect(deadline.combined.reason).toBe(reason);
    expect(deadline.timedOut.aborted).toBe(false);
    deadline.dispose();
  });

  it("starts aborted when the caller already is", () => {
    const caller = new AbortController();
    const reason = new Error("gone before");
    caller.abort(reason);
    const deadline = startDeadline(60_000, caller.signal);
    expect(deadline.combined.reason).toBe(reason);
    deadline.dispose();
  });

  it("times out with the timer's reason, the caller untouched", async () => {
    for (const caller of [new AbortController(), undefined]) {
      const deadline = startDeadline(5, caller?.signal);
      await once(deadline.combined, "abort");
      expect(deadline.timedOut.aborted).toBe(true);
      expect(deadline.combined.reason).toBe(deadline.timedOut.reason);
      expect((deadline.combined.reason as Error).name).toBe("AbortError");
      expect(caller?.signal.aborted ?? false).toBe(false);
      deadline.dispose();
    }
  });

  it("leaves nothing on the caller's signal once disposed", () => {
    const caller = new AbortController();
    const deadline = startDeadline(60_000, caller.signal);
    deadline.dispose();
    caller.abort();
    expect(deadline.combined.aborted).toBe(false);
    expect(deadline.timedOut.aborted).toBe(false);
  });
});
