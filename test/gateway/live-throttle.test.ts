import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { throttle } from "../../src/gateway/live/live-throttle.ts";
import { manualTimers } from "../support/clock.ts";
import { ACME } from "./harness.ts";
import { AGENT_ID, followSse, names } from "./live-support.ts";
import { start } from "./subscriptions-support.ts";

// `@live(throttle: N)`: at most one push per N ms per subscription, the latest answer winning and
// the last change always pushed. Time is the input: a manual clock, moved by the test.

describe("the live throttle, on a manual clock", () => {
  it("delivers at most once per interval, never a stale result, and never loses the last", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000 }),
        fc.array(fc.record({ gap: fc.nat({ max: 1_500 }), stopHere: fc.boolean() }), {
          maxLength: 40,
        }),
        (intervalMs, steps) => {
          const timers = manualTimers(10_000);
          const delivered: Array<{ value: number; at: number }> = [];
          let offered = -1;
          const paced = throttle<number>(
            (value) => {
              // Whatever is delivered is the newest offered so far: the latest answer wins.
              expect(value).toBe(offered);
              delivered.push({ value, at: timers.now() });
              return true;
            },
            intervalMs,
            timers,
          );
          const starts = timers.now();
          for (const [index, step] of steps.entries()) {
            timers.advance(step.gap);
            offered = index;
            paced.offer(index);
          }
          timers.advance(intervalMs);
          // Spaced by the interval, from the first result (the throttle's start) on.
          const times = [starts, ...delivered.map((delivery) => delivery.at)];
          for (let i = 1; i < times.length; i += 1) {
            expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(
              intervalMs,
            );
          }
          // Nothing offered is left behind: the last offer is the last delivery.
          expect(delivered.at(-1)?.value ?? -1).toBe(offered);
          expect(timers.pending).toBe(0);
        },
      ),
    );
  });

  it("delivers a result offered after a quiet interval at once", () => {
    const timers = manualTimers();
    const delivered: string[] = [];
    const paced = throttle<string>((value) => delivered.push(value) > 0, 500, timers);
    timers.advance(500);
    paced.offer("a");
    expect(delivered).toEqual(["a"]);
    paced.offer("b");
    paced.offer("c");
    expect(delivered).toEqual(["a"]);
    timers.advance(499);
    expect(delivered).toEqual(["a"]);
    timers.advance(1);
    expect(delivered).toEqual(["a", "c"]);
  });

  it("starts no interval for a result it did not send (no change)", () => {
    const timers = manualTimers();
    const delivered: string[] = [];
    const paced = throttle<string>(
      (value) => value !== "same" && delivered.push(value) > 0,
      500,
      timers,
    );
    timers.advance(500);
    paced.offer("same");
    paced.offer("changed");
    expect(delivered).toEqual(["changed"]);
    expect(timers.pending).toBe(0);
  });

  it("drops what it holds and leaves no timer once stopped", () => {
    const timers = manualTimers();
    const delivered: string[] = [];
    const paced = throttle<string>((value) => delivered.push(value) > 0, 500, timers);
    paced.offer("held");
    expect(timers.pending).toBe(1);
    paced.stop();
    expect(timers.pending).toBe(0);
    timers.advance(1_000);
    paced.offer("late");
    expect(delivered).toEqual([]);
  });

  it("delivers every result at once without an interval", () => {
    const timers = manualTimers();
    const delivered: number[] = [];
    const paced = throttle<number>((value) => delivered.push(value) > 0, null, timers);
    for (const value of [1, 2, 3]) paced.offer(value);
    expect(delivered).toEqual([1, 2, 3]);
    expect(timers.pending).toBe(0);
  });
});

describe("@live(throttle:) through the gateway", () => {
  it("holds a change made within the interval until the clock has moved past it", async ({
    onTestFinished,
  }) => {
    const timers = manualTimers();
    const harness = await start(onTestFinished, {}, { live: { timers } });
    const query = /* GraphQL */ `
      query ThrottledAgent($id: ID!, $every: Int) @live(throttle: $every) { agent(id: $id) { id name } }
    `;
    const live = followSse(harness, query, { id: AGENT_ID, every: 60_000 });
    onTestFinished(async () => live.stop());
    await live.count(1);
    const renamed = await harness.graphql(
      `mutation { updateAgent(id: "${AGENT_ID}", input: { name: "Throttled desk" }) { agent { id } } }`,
      {},
      { authorization: ACME },
    );
    expect(renamed.body.errors).toBeUndefined();
    // The write's change was executed and is held: a timer waits for the interval's end.
    await vi.waitFor(() => expect(timers.pending).toBe(1), { timeout: 3_000, interval: 10 });
    expect(live.results).toHaveLength(1);
    timers.advance(59_999);
    expect(live.results).toHaveLength(1);
    timers.advance(1);
    await live.count(2);
    expect(names(live.results)).toEqual([expect.any(String), "Throttled desk"]);
  });
});
