import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
import { WAIT_MS } from "../support/wait.ts";
import { ACME, ACME_READONLY } from "./harness.ts";
import {
  LIVE,
  payloads,
  pollCount,
  pollsOnceSettled,
  start,
  subscribeSse,
  takePolls,
  untilFinished,
  updates,
} from "./subscriptions-support.ts";

describe.concurrent("conversationStatus pollers", () => {
  it("shares one poller among the subscribers of one (key, conversation): one poll stream upstream", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, { callDurationMs: 60_000 });
    const hub = harness.gateway.conversationStatusHub;
    const first = await subscribeSse(harness, LIVE);
    await first.nexts(1);
    expect(hub.pollerCount).toBe(1);

    const second = await subscribeSse(harness, LIVE);
    await second.nexts(1);
    expect(hub.pollerCount).toBe(1);

    // One poller polls at most once per interval (100 ms; 95 for timer slack): over a window,
    // two subscribers cause no more polls than that, where two pollers would cause twice as many.
    // The window ends once a few polls were seen, however slowly a busy machine polls.
    takePolls(harness);
    const from = performance.now();
    await vi.waitFor(() => expect(pollCount(harness)).toBeGreaterThanOrEqual(4), {
      timeout: WAIT_MS,
      interval: 10,
    });
    const together = takePolls(harness);
    const elapsed = performance.now() - from;
    expect(new Set(together)).toEqual(new Set([ACME]));
    expect(together.length).toBeLessThanOrEqual(Math.floor(elapsed / 95) + 1);
    // The second's first update is one the first also received from the shared poller. (Not
    // necessarily the first's last one: by now the live call's duration has grown again, and
    // under load the last may be newer than the one current when the second joined.)
    expect(payloads(first.messages)).toContainEqual(payloads(second.messages)[0]);

    // One subscriber leaving keeps the poller for the other: it polls on.
    first.disconnect();
    takePolls(harness);
    await vi.waitFor(() => expect(pollCount(harness)).toBeGreaterThanOrEqual(2), {
      timeout: WAIT_MS,
      interval: 10,
    });
    expect(hub.pollerCount).toBe(1);

    // The last one leaving stops it: no more upstream requests.
    second.disconnect();
    expect(await pollsOnceSettled(harness, { pollers: 0, overMs: 300 })).toEqual([]);
  });

  it("gives another API key its own poller, and stops each when its subscribers leave", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, { callDurationMs: 60_000 });
    const hub = harness.gateway.conversationStatusHub;
    const acme = await subscribeSse(harness, LIVE, ACME);
    const readonly = await subscribeSse(harness, LIVE, ACME_READONLY);
    await acme.nexts(1);
    await readonly.nexts(1);
    expect(hub.pollerCount).toBe(2);
    // Both keys read the same call.
    const [fromAcme] = updates(payloads(acme.messages));
    const [fromReadonly] = updates(payloads(readonly.messages));
    expect(fromReadonly?.startedAt).toBe(fromAcme?.startedAt);

    takePolls(harness);
    // A status poll of each key (not a list read behind `conversation`).
    const statusPath = `/v1/conversations/${LIVE}/status`;
    const polled = (key: string) =>
      harness.sandbox.requests.some(
        (r) => r.path === statusPath && r.headers.authorization === key,
      );
    await vi.waitFor(() => expect(polled(ACME) && polled(ACME_READONLY)).toBe(true), {
      timeout: WAIT_MS,
      interval: 10,
    });
    const polls = takePolls(harness);
    expect(polls.filter((key) => key === ACME).length).toBeGreaterThanOrEqual(1);
    expect(polls.filter((key) => key === ACME_READONLY).length).toBeGreaterThanOrEqual(1);
    expect(polls.filter((key) => key !== ACME && key !== ACME_READONLY)).toEqual([]);

    acme.disconnect();
    const after = await pollsOnceSettled(harness, { pollers: 1, overMs: 300 });
    expect(after).not.toContain(ACME);
    expect(after).toContain(ACME_READONLY);

    readonly.disconnect();
    expect(await pollsOnceSettled(harness, { pollers: 0, overMs: 250 })).toEqual([]);
  });

  it("sends a subscriber joining an existing poller the latest value at once, without a poll", async ({
    onTestFinished,
  }) => {
    // Polls are 5 s apart: only the shared poller's latest value can answer the newcomer quickly.
    const harness = await start(
      onTestFinished,
      { callDurationMs: 60_000 },
      { pollIntervalMs: 5_000 },
    );
    const first = await subscribeSse(harness, LIVE);
    const [latest] = updates(await first.nexts(1));
    expect(takePolls(harness)).toEqual([ACME]);

    const joinedAt = Date.now();
    const second = await subscribeSse(harness, LIVE);
    // Before the next poll is due (5 s): the shared poller's latest value, and no poll at all.
    const [received] = updates(await second.nexts(1, 4_500));
    expect(Date.now() - joinedAt).toBeLessThan(5_000);
    expect(received).toEqual(latest);
    expect(takePolls(harness)).toEqual([]);
    expect(harness.gateway.conversationStatusHub.pollerCount).toBe(1);
    first.disconnect();
    second.disconnect();
    await vi.waitFor(() => expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0), {
      timeout: WAIT_MS,
      interval: 10,
    });
  });

  it("does not leave a poll loop behind when the only subscriber leaves during a poll", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, { callDurationMs: 60_000 });
    const hub = harness.gateway.conversationStatusHub;
    // The first poll takes 400 ms upstream; the subscriber hangs up while it is in flight.
    harness.sandbox.injectFault({ path: `/v1/conversations/${LIVE}/status`, delayMs: 400 });
    const subscription = await subscribeSse(harness, LIVE);
    await vi.waitFor(() => expect(harness.sandbox.requests).toHaveLength(1), {
      timeout: WAIT_MS,
      interval: 5,
    });
    subscription.disconnect();
    await vi.waitFor(() => expect(hub.pollerCount).toBe(0), { timeout: WAIT_MS, interval: 10 });
    await sleep(800); // the slow answer is due at 400 ms; then four poll intervals pass
    expect(takePolls(harness)).toEqual([ACME]);
    expect(subscription.messages).toEqual([]);
  });

  it("stops every poller and ends the streams when the gateway closes", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, { callDurationMs: 60_000 });
    const hub = harness.gateway.conversationStatusHub;
    const subscription = await subscribeSse(harness, LIVE);
    await subscription.nexts(1);
    expect(hub.pollerCount).toBe(1);
    const requests = harness.sandbox.requests;
    await harness.close();
    expect(hub.pollerCount).toBe(0);
    // The stream ends: with its complete event, or cut with its connection when the close gets
    // there first (a busy machine); a stream still open after the bound fails.
    const ended = await untilFinished(subscription, WAIT_MS).then(
      () => true,
      (error: unknown) => error instanceof TypeError && error.message === "terminated",
    );
    expect(ended).toBe(true);
    const seen = requests.length;
    await sleep(300);
    expect(requests.length).toBe(seen);
  });
});
