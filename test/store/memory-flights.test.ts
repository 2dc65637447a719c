import { describe, expect, it } from "vitest";
import { MemoryPollerServer } from "../../src/fleet/poller-store.ts";

// The in-process store stands in for Redis while it is away, and meets every flight's name:
// what it keeps beside each (its last owner, a refusal lately) is bounded as Redis's keys are
// by their expiry.
describe("the in-process flights' memory", () => {
  it("names the last owner a rival, and forgets the oldest names past ten thousand", () => {
    const server = new MemoryPollerServer();
    const fly = (name: string, instance: string) =>
      server.flight(name, `${instance}:1`, instance, 60_000, 10_000);
    const land = (name: string, instance: string, mark: { epoch: string; seq: number }) =>
      server.land(name, { ...mark, from: instance, answer: "{}" }, `${instance}:1`);
    const first = fly("flight:first", "a");
    if (first.role !== "owner") throw new Error("a free lease is granted");
    land("flight:first", "a", first.mark);
    const second = fly("flight:first", "b");
    expect(second).toMatchObject({ role: "owner", rival: true });
    if (second.role !== "owner") throw new Error("a landed flight's lease is free");
    land("flight:first", "b", second.mark);
    for (let i = 0; i < 9_999; i++) fly(`flight:${i}`, "c");
    // Ten thousand names: b is still remembered as the first name's last owner.
    const third = fly("flight:first", "a");
    expect(third).toMatchObject({ role: "owner", rival: true });
    if (third.role !== "owner") throw new Error("a landed flight's lease is free");
    land("flight:first", "a", third.mark);
    for (let i = 0; i < 10_000; i++) fly(`flight:more-${i}`, "c");
    // Ten thousand newer names: a, its last owner, was forgotten with the oldest.
    expect(fly("flight:first", "b")).not.toHaveProperty("rival");
  });
});
