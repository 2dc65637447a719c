import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { manualClock } from "../support/clock.ts";
import { ACME, GLOBEX } from "./harness.ts";
import {
  errorCodes,
  expectWholeCall,
  LIVE,
  payloads,
  start,
  subscribeSse,
  takePolls,
  untilFinished,
  updates,
  walkCall,
} from "./subscriptions-support.ts";

describe.concurrent("Subscription.conversationStatus over SSE", () => {
  it("follows a live call: only changes, non-decreasing duration, ended last, then completes by itself", async ({
    onTestFinished,
  }) => {
    // The seeded live call started 10% of its length ago. On the sandbox's clock it is walked
    // to 1.15 s (duration 1), then to its end at 1.5 s (duration 1 too: only endedAt changes).
    const callDurationMs = 1_500;
    const clock = manualClock();
    const harness = await start(onTestFinished, { callDurationMs, now: clock.now });
    const subscription = await subscribeSse(harness, LIVE);
    expect(subscription.status).toBe(200);
    expect(subscription.contentType).toMatch(/^text\/event-stream/);

    const updateCount = () => payloads(subscription.messages).length;
    await walkCall(harness, clock, updateCount, [1_000, 350]);
    expect(await untilFinished(subscription)).toBe(true);
    expect(subscription.messages.at(-1)).toEqual({ event: "complete" });
    expectWholeCall(updates(payloads(subscription.messages)), callDurationMs);

    // More polls than updates: the answers that changed nothing were not sent on.
    const polls = takePolls(harness);
    expect(polls.length).toBeGreaterThan(payloads(subscription.messages).length);
    expect(new Set(polls)).toEqual(new Set([ACME]));

    // The call is over: no poller is left, nothing polls any more.
    expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0);
    await sleep(300);
    expect(takePolls(harness)).toEqual([]);
  });

  it("ends at once with NOT_FOUND (data null) for a conversation that does not exist", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {});
    const subscription = await subscribeSse(harness, "cnv_does_not_exist");
    expect(await untilFinished(subscription)).toBe(true);
    expect(subscription.messages).toHaveLength(2);
    const [payload] = payloads(subscription.messages);
    expect(payload?.data).toBeNull();
    expect(errorCodes(payload)).toEqual(["NOT_FOUND"]);
    expect(payload?.errors?.[0]?.extensions?.upstream).toMatchObject({
      status: 404,
      code: "NOT_FOUND",
    });
    // A field error of the event: the upstream's status is in `upstream`, no http.status.
    expect(payload?.errors?.[0]?.extensions?.http).toBeUndefined();
    expect(subscription.messages[1]).toEqual({ event: "complete" });
    expect(takePolls(harness, "cnv_does_not_exist")).toEqual([ACME]);
    expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0);
  });

  it("answers NOT_FOUND to another organization's key, even while the owner follows the call (tenant isolation)", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, { callDurationMs: 30_000 });
    const owner = await subscribeSse(harness, LIVE, ACME);
    await owner.nexts(1);
    takePolls(harness);
    const subscription = await subscribeSse(harness, LIVE, GLOBEX);
    expect(await untilFinished(subscription)).toBe(true);
    const [payload] = payloads(subscription.messages);
    expect(subscription.messages).toHaveLength(2);
    expect(payload?.data).toBeNull();
    expect(errorCodes(payload)).toEqual(["NOT_FOUND"]);
    expect(JSON.stringify(payload)).not.toContain("duration");
    expect(takePolls(harness).filter((key) => key === GLOBEX)).toEqual([GLOBEX]);
    // The owner's stream is untouched: still open, no error, its poller alone remains.
    expect(harness.gateway.conversationStatusHub.pollerCount).toBe(1);
    expect(owner.messages.every((m) => m.event === "next" && !m.payload.errors)).toBe(true);
    owner.disconnect();
  });

  it("sends one ended update and completes for a call that is already over", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {});
    const subscription = await subscribeSse(harness, SEED_IDS.acmeConversation);
    expect(await untilFinished(subscription)).toBe(true);
    expect(subscription.messages).toHaveLength(2);
    const [update] = updates(payloads(subscription.messages));
    expect(update).toMatchObject({
      conversation: { id: SEED_IDS.acmeConversation, status: "SUCCESS" },
      ended: true,
    });
    expect(update?.endedAt).toBe(
      new Date(Date.parse(update?.startedAt ?? "") + (update?.duration ?? 0) * 1000).toISOString(),
    );
    expect(takePolls(harness, SEED_IDS.acmeConversation)).toEqual([ACME]);
    expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0);
  });

  it("rejects an ID with the wrong prefix with BAD_USER_INPUT, without an upstream call", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {});
    for (const id of [SEED_IDS.acmeAgent, "cnv_", ""]) {
      const subscription = await subscribeSse(harness, id);
      expect(await untilFinished(subscription)).toBe(true);
      const [payload] = payloads(subscription.messages);
      expect(subscription.messages).toHaveLength(2);
      expect(payload?.data ?? null).toBeNull();
      expect(errorCodes(payload)).toEqual(["BAD_USER_INPUT"]);
    }
    expect(harness.takeUpstreamRequests()).toEqual([]);
    expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0);
  });

  it("rejects a subscription without an API key with UNAUTHENTICATED, without an upstream call", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {});
    const subscription = await subscribeSse(harness, LIVE, null);
    expect(subscription.status).toBe(401);
    expect(await untilFinished(subscription)).toBe(true);
    const [payload] = payloads(subscription.messages);
    expect(subscription.messages).toHaveLength(2);
    expect(payload?.data ?? null).toBeNull();
    expect(errorCodes(payload)).toEqual(["UNAUTHENTICATED"]);
    expect(harness.takeUpstreamRequests()).toEqual([]);
    expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0);
  });
});
