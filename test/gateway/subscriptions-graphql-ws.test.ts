import { setTimeout as sleep } from "node:timers/promises";
import { createClient } from "graphql-ws";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { manualClock } from "../support/clock.ts";
import { ACME, GLOBEX } from "./harness.ts";
import {
  errorCodes,
  expectWholeCall,
  LIVE,
  type Payload,
  pollsOnceSettled,
  type StatusUpdate,
  SUBSCRIPTION,
  start,
  subscribeSse,
  takePolls,
  updates,
  walkCall,
  within,
  wsClient,
} from "./subscriptions-support.ts";

describe.concurrent("Subscription.conversationStatus over graphql-ws", () => {
  it("follows a live call and completes after the call has ended", async ({ onTestFinished }) => {
    // Started 0.2 s before: walked on the sandbox's clock to durations 1, then 2 and ended.
    const callDurationMs = 2_000;
    const clock = manualClock();
    const harness = await start(onTestFinished, { callDurationMs, now: clock.now });
    const client = wsClient(harness);
    try {
      const received: Payload[] = [];
      const iterate = (async () => {
        for await (const result of client.iterate({ query: SUBSCRIPTION, variables: { id: LIVE } }))
          received.push(result as Payload);
      })();
      await walkCall(harness, clock, () => received.length, [1_000, 800]);
      await within(iterate, 15_000, "graphql-ws subscription still open");
      expectWholeCall(updates(received), callDurationMs);
      expect(new Set(takePolls(harness))).toEqual(new Set([ACME]));
      expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0);
    } finally {
      await client.dispose();
    }
  });

  it("shares the SSE subscribers' poller, and stops it when the last socket drops", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, { callDurationMs: 60_000 });
    const hub = harness.gateway.conversationStatusHub;
    const sse = await subscribeSse(harness, LIVE);
    await sse.nexts(1);
    const leaving = wsClient(harness);
    const dropping = wsClient(harness);
    try {
      const iterators = [leaving, dropping].map((client) =>
        client.iterate<{ conversationStatus: StatusUpdate }>({
          query: SUBSCRIPTION,
          variables: { id: LIVE },
        }),
      );
      for (const iterator of iterators) {
        const first = await within(iterator.next(), 10_000, "no first update over graphql-ws");
        expect(first.done).toBe(false);
        expect(first.value?.data?.conversationStatus.conversation?.id).toBe(LIVE);
      }
      expect(hub.pollerCount).toBe(1);

      // The SSE subscriber hangs up and one socket completes its subscription: one is left.
      sse.disconnect();
      await iterators[0]?.return?.();
      await sleep(250);
      expect(hub.pollerCount).toBe(1);

      // The last socket is cut without a goodbye: the poller stops all the same.
      dropping.terminate();
      expect(await pollsOnceSettled(harness, { pollers: 0, overMs: 250 })).toEqual([]);
    } finally {
      await leaving.dispose();
      await dropping.dispose();
    }
  });

  it("refuses a socket without an API key at connection_init (4403), without an upstream call", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {});
    const client = createClient({
      url: `${harness.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
    });
    try {
      const received: Payload[] = [];
      const closed = await (async () => {
        for await (const result of client.iterate({ query: SUBSCRIPTION, variables: { id: LIVE } }))
          received.push(result as Payload);
        return undefined;
      })().catch((error: { code?: number; reason?: string }) => error);
      // Never acknowledged: the socket holds no place once the check has failed.
      expect(received).toEqual([]);
      expect(closed).toMatchObject({
        code: 4403,
        reason:
          "UNAUTHENTICATED: A key is required: send `Authorization` in the connection params.",
      });
      expect(harness.takeUpstreamRequests()).toEqual([]);
      expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0);
    } finally {
      await client.dispose();
    }
  });

  it("answers NOT_FOUND to another organization's key, then completes", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, { callDurationMs: 30_000 });
    const client = wsClient(harness, GLOBEX);
    try {
      const received: Payload[] = [];
      for await (const result of client.iterate({ query: SUBSCRIPTION, variables: { id: LIVE } }))
        received.push(result as Payload);
      expect(received).toHaveLength(1);
      expect(received[0]?.data).toBeNull();
      expect(errorCodes(received[0])).toEqual(["NOT_FOUND"]);
      // A field error of the event: the upstream's status is in `upstream`, no http.status.
      expect(received[0]?.errors?.[0]?.extensions?.http).toBeUndefined();
      expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0);
    } finally {
      await client.dispose();
    }
  });
});

describe("graphql-ws connection params", () => {
  const shapes: Array<[string, Record<string, unknown>]> = [
    ["Authorization", { Authorization: ACME }],
    ["authorization", { authorization: ACME }],
    ["headers.Authorization", { headers: { Authorization: ACME } }],
  ];
  for (const [where, connectionParams] of shapes) {
    it(`read the API key from ${where}`, async ({ onTestFinished }) => {
      const harness = await start(onTestFinished, {});
      const client = createClient({
        url: `${harness.url.replace(/^http/, "ws")}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams,
        retryAttempts: 0,
        lazy: true,
      });
      try {
        const received: Payload[] = [];
        const variables = { id: "cnv_does_not_exist" };
        for await (const result of client.iterate({ query: SUBSCRIPTION, variables }))
          received.push(result as Payload);
        // NOT_FOUND, not UNAUTHENTICATED: the key reached the upstream.
        expect(errorCodes(received[0])).toEqual(["NOT_FOUND"]);
        expect(harness.sandbox.requests.map((request) => request.headers.authorization)).toEqual([
          ACME,
        ]);
      } finally {
        await client.dispose();
      }
    });
  }
});
