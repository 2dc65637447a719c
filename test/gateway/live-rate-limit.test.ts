import type { Client } from "graphql-ws";
import { describe, expect, it, vi } from "vitest";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { manualClock } from "../support/clock.ts";
import { WAIT_MS } from "../support/wait.ts";
import { ACME } from "./harness.ts";
import { AGENT_ID, followWs, LIVE_AGENT } from "./live-support.ts";
import { start, wsClient } from "./subscriptions-support.ts";

const AGENT_PATH = `/v1/agents/${AGENT_ID}`;
const HOUR_MS = 3_600_000;

describe.concurrent("live queries within the rate limit", () => {
  it("poll at the interval while the key's rate limit is ample", async ({ onTestFinished }) => {
    const harness = await start(onTestFinished, {}, { pollIntervalMs: 100 });
    const client = wsClient(harness);
    onTestFinished(() => client.dispose() as Promise<void>);
    await followWs(client, LIVE_AGENT).count(1);
    await vi.waitFor(() => expect(harness.gateway.liveHub.pacing(ACME)).toBe(100), {
      timeout: WAIT_MS,
    });
  });

  it("stretch their intervals as the advertised remaining falls", async ({ onTestFinished }) => {
    // The sandbox's window starts in the future, so it ends at least an hour from now: 9 calls
    // left for an hour is a share of 4 (LIVE_RATE_LIMIT_PERCENT 50), one per 15 minutes.
    const windowStart = Math.ceil(Date.now() / HOUR_MS) * HOUR_MS;
    const clock = manualClock(windowStart + 1_000);
    const harness = await start(
      onTestFinished,
      { now: clock.now, rateLimit: 10, rateWindowSeconds: 3600 },
      { pollIntervalMs: 100 },
    );
    const client = wsClient(harness);
    onTestFinished(() => client.dispose() as Promise<void>);
    await followWs(client, LIVE_AGENT).count(1);
    await vi.waitFor(
      () => expect(harness.gateway.liveHub.pacing(ACME)).toBeGreaterThanOrEqual(60_000),
      { timeout: WAIT_MS },
    );
  });

  it("pause the key's pollers after a 429 until its reset", async ({ onTestFinished }) => {
    const harness = await start(onTestFinished, {}, { pollIntervalMs: 100 });
    const client = wsClient(harness);
    onTestFinished(() => client.dispose() as Promise<void>);
    await followWs(client, LIVE_AGENT).count(1);
    const reset = Math.ceil(Date.now() / 1000) + 30;
    harness.sandbox.injectFault({
      path: AGENT_PATH,
      status: 429,
      headers: {
        "X-RateLimit-Limit": "100",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": String(reset),
      },
    });
    await vi.waitFor(
      () => expect(harness.gateway.liveHub.pacing(ACME)).toBeGreaterThanOrEqual(20_000),
      { timeout: WAIT_MS },
    );
  });

  it("keep the pollers of one organization within their share of its window, whatever its keys", async ({
    onTestFinished,
  }) => {
    // A 2-second window of 40 calls for the organization: its pollers may spend 20 of each
    // (LIVE_RATE_LIMIT_PERCENT 50), here through two keys that spend one bucket.
    const harness = await start(
      onTestFinished,
      { rateLimit: 40, rateWindowSeconds: 2 },
      { pollIntervalMs: 20 },
    );
    const clients = [ACME, `Bearer ${DEMO_KEYS.acmeReadonly}`].map((key) => wsClient(harness, key));
    onTestFinished(async () => {
      await Promise.all(clients.map((client) => client.dispose()));
    });
    const lives = [
      followWs(clients[0] as Client, LIVE_AGENT),
      followWs(clients[1] as Client, "query Org @live { organization { id name } }", {}),
    ];
    await Promise.all(lives.map((live) => live.count(1)));
    // Each poll by the window the sandbox counted it in: two whole windows after the first.
    const firstReset = Math.ceil(Date.now() / 2_000) * 2 + 2;
    await new Promise((resolve) => setTimeout(resolve, (firstReset + 2) * 1_000 - Date.now() + 50));
    const pollsIn = (reset: number) =>
      harness.sandbox.requests.filter(
        (request) =>
          (request.headers["x-request-id"] ?? "").startsWith("live-") &&
          request.rateLimitReset === reset,
      ).length;
    const perWindow = [pollsIn(firstReset), pollsIn(firstReset + 2)];
    for (const spent of perWindow) {
      expect(spent).toBeGreaterThan(0);
      expect(spent).toBeLessThanOrEqual(20);
    }
  });
});
