import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
import { ConversationStatusHub } from "../../src/gateway/live/conversation-status-hub.ts";
import { LiveHub } from "../../src/gateway/live/live-hub.ts";
import type { UpstreamClient } from "../../src/upstream/client.ts";
import { createKeyHasher } from "../../src/upstream/key-memory.ts";
import { manualClock } from "../support/clock.ts";
import { WAIT_MS } from "../support/wait.ts";
import { ACME } from "./harness.ts";
import {
  errorCodes,
  expectWholeCall,
  FIGURES_ONLY,
  LIVE,
  payloads,
  pollCount,
  start,
  subscribeSse,
  takePolls,
  untilFinished,
  updates,
  within,
} from "./subscriptions-support.ts";

describe.concurrent("conversationStatus when the upstream fails", () => {
  const STATUS_PATH = `/v1/conversations/${LIVE}/status`;

  it("rides out a few transient upstream failures without telling the subscriber", async ({
    onTestFinished,
  }) => {
    const clock = manualClock();
    const harness = await start(onTestFinished, { callDurationMs: 60_000, now: clock.now });
    const subscription = await subscribeSse(harness, LIVE);
    await subscription.nexts(1);
    // Two whole polls fail (each GET is tried three times on 503), then the upstream recovers:
    // a poll answers again, unchanged, and the subscriber was told nothing.
    harness.sandbox.injectFault({ path: STATUS_PATH, status: 503, times: 6 });
    takePolls(harness);
    await vi.waitFor(() => expect(pollCount(harness)).toBeGreaterThan(6), {
      timeout: WAIT_MS,
      interval: 10,
    });
    expect(payloads(subscription.messages)).toHaveLength(1);
    // A second passes on the sandbox's clock: the next update proves the poller kept going.
    clock.advance(1_000);
    await subscription.nexts(2, 5_000);
    const seen = updates(payloads(subscription.messages));
    expect(seen[1]?.duration).toBe((seen[0]?.duration ?? 0) + 1);
    expect(harness.gateway.conversationStatusHub.pollerCount).toBe(1);
    subscription.disconnect();
  });

  it("ends with UPSTREAM_ERROR once the upstream keeps failing, and stops polling", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, { callDurationMs: 60_000 });
    // 500 is not retried by the client: each poll is one request. Five failures are tolerated.
    harness.sandbox.injectFault({ path: STATUS_PATH, status: 500, times: 1_000 });
    const subscription = await subscribeSse(harness, LIVE);
    expect(await untilFinished(subscription)).toBe(true);
    expect(subscription.messages).toHaveLength(2);
    const [payload] = payloads(subscription.messages);
    expect(payload?.data).toBeNull();
    expect(errorCodes(payload)).toEqual(["UPSTREAM_ERROR"]);
    expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0);
    expect(takePolls(harness)).toHaveLength(6);
    await sleep(300);
    expect(takePolls(harness)).toEqual([]);
  });

  it("waits for the rate-limit window to reset after a 429 instead of failing the stream", async ({
    onTestFinished,
  }) => {
    // Two requests per second for the organization; the poller would like ten. The call lasts
    // long enough (2.7 s left) that a busy machine's first answered poll still finds it live.
    const callDurationMs = 3_000;
    const harness = await start(onTestFinished, {
      callDurationMs,
      rateLimit: 2,
      rateWindowSeconds: 1,
    });
    const startedAt = Date.now();
    const subscription = await subscribeSse(harness, LIVE, ACME, FIGURES_ONLY);
    expect(await untilFinished(subscription)).toBe(true);
    expectWholeCall(updates(payloads(subscription.messages)), callDurationMs, {
      everySecond: false,
    });
    // At most one 429 per window: the poller does not hammer a closed window.
    const windows = Math.ceil((Date.now() - startedAt) / 1_000) + 1;
    const limited = harness.sandbox.requests.filter((request) => request.status === 429);
    expect(limited.length).toBeLessThanOrEqual(windows);
  });

  it("keeps a stalled subscriber from breaking the poller it shares, and gives it the latest state", async () => {
    // An upstream whose duration changes on every poll, and polls back to back: far more
    // updates than a subscriber that stopped reading could queue.
    let polls = 0;
    const upstream: UpstreamClient = {
      async request<T>() {
        polls += 1;
        const body = {
          id: "cnv_fast",
          status: "IN_PROGRESS",
          duration: polls,
          startedAt: "2026-01-05T09:00:00.000Z",
          endedAt: null,
        };
        return { status: 200, body: body as T, rateLimit: undefined, requestId: undefined };
      },
      isReachable: async () => true,
      close: async () => {},
    };
    const keyHash = createKeyHasher();
    const live = new LiveHub({ upstream, keyHash, intervalMs: 0, rateLimitShare: 0.5 });
    const hub = new ConversationStatusHub({ hub: live, keyHash });
    const stalled = hub.subscribe(ACME, "cnv_fast");
    const reader = hub.subscribe(ACME, "cnv_fast");
    try {
      expect(await stalled.next()).toMatchObject({ done: false, value: { duration: 1 } });
      const readPast = async (target: number): Promise<number> => {
        let last = 0;
        while (last < target) {
          const { value, done } = await reader.next();
          expect(done).toBe(false);
          if (value instanceof Error || value === undefined) throw value ?? new Error("no value");
          expect(value.duration).toBeGreaterThan(last);
          last = value.duration ?? 0;
        }
        return last;
      };
      // Repeater refuses a 1025th pending push: go well past it.
      // A bound against a hang, not a speed: a busy machine reads 1,100 updates slowly.
      const last = await within(readPast(1_100), 20_000, "the reading subscriber stalled too");
      expect(hub.pollerCount).toBe(1);
      // The stalled subscriber resumes with the newest state, not the backlog.
      const resumed = await stalled.next();
      expect(resumed.done).toBe(false);
      expect((resumed.value as { duration: number }).duration).toBeGreaterThanOrEqual(last);
    } finally {
      await stalled.return?.();
      await reader.return?.();
      live.close();
    }
    expect(hub.pollerCount).toBe(0);
    const after = polls;
    await sleep(50);
    expect(polls).toBe(after);
  });
});
