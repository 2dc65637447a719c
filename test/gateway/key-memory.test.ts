import { afterEach, describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { KeyMemory } from "../../src/upstream/key-memory.ts";
import { manualClock } from "../support/clock.ts";
import { ACME, GLOBEX, type Harness, startHarness } from "./harness.ts";

let harness: Harness;
afterEach(() => harness.close());

describe("rate-limit memory", () => {
  it("answers a key the upstream rate-limited locally until the reset, however its header is spelled", async () => {
    harness = await startHarness();
    const reset = Math.ceil(Date.now() / 1000) + 30;
    harness.sandbox.injectFault({
      path: "/v1/organization",
      status: 429,
      headers: {
        "X-RateLimit-Limit": "100",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": String(reset),
      },
    });
    const first = await harness.graphql("{ organization { name } }");
    expect(first.status).toBe(429);
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/organization"]);

    for (const authorization of [ACME, `  bearer   ${ACME.slice("Bearer ".length)}  `]) {
      const again = await harness.graphql(
        `{ organization { name } agent(id: "${SEED_IDS.acmeAgent}") { name } }`,
        undefined,
        { authorization },
      );
      expect(again.status).toBe(429);
      expect(again.body.errors?.map((error) => error.extensions?.code)).toEqual([
        "RATE_LIMITED",
        "RATE_LIMITED",
      ]);
      const retryAfter = again.body.errors?.[0]?.extensions?.retryAfter as number;
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(31);
      expect(again.headers.get("retry-after")).toBe(String(retryAfter));
      // Each call the memory answered in its place counts (docs/upstream-sharing.md).
      expect(again.body.extensions?.cost).toEqual({ estimated: 2, upstreamCalls: 2 });
    }
    // Nothing went upstream for the remembered key; another key is not affected.
    expect(harness.takeUpstreamRequests()).toEqual([]);
    const other = await harness.graphql("{ organization { name } }", undefined, {
      authorization: GLOBEX,
    });
    expect(other.status).toBe(200);
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
  });

  it("calls upstream again once the window has reset", async () => {
    const clock = manualClock();
    harness = await startHarness({ upstream: { keyMemory: new KeyMemory({ now: clock.now }) } });
    harness.sandbox.injectFault({
      path: "/v1/organization",
      status: 429,
      headers: { "Retry-After": "1" },
    });
    expect((await harness.graphql("{ organization { name } }")).status).toBe(429);
    expect((await harness.graphql("{ organization { name } }")).status).toBe(429);
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
    clock.advance(999);
    expect((await harness.graphql("{ organization { name } }")).status).toBe(429);
    expect(harness.takeUpstreamRequests()).toEqual([]);
    clock.advance(2);
    const after = await harness.graphql("{ organization { name } }");
    expect(after.status).toBe(200);
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
  });
});

describe("a key the upstream refuses", () => {
  it("makes a few upstream calls for nodes(ids: 90 IDs), not one per ID", async () => {
    harness = await startHarness();
    const ids = Array.from({ length: 90 }, (_, i) => `agt_${i}`);
    const response = await harness.graphql(
      "query ($ids: [ID!]!) { nodes(ids: $ids) { id } }",
      { ids },
      { authorization: "Bearer sk_garbage" },
    );
    const codes = new Set(response.body.errors?.map((error) => error.extensions?.code));
    expect(codes).toEqual(new Set(["UNAUTHENTICATED"]));
    expect(response.body.errors).toHaveLength(90);
    // At most four calls start before the first answer; after its 401 no other is sent.
    expect(harness.takeUpstreamRequests().length).toBeLessThanOrEqual(4);
  });
});

describe("pollers", () => {
  it("are shared by one key however its header is spelled", async () => {
    harness = await startHarness();
    const hub = harness.gateway.conversationStatusHub;
    const token = ACME.slice("Bearer ".length);
    const streams = [ACME, `bearer ${token}`, `  Bearer    ${token} `].map((authorization) =>
      hub.subscribe(authorization, SEED_IDS.acmeLiveConversation),
    );
    await Promise.all(streams.map((stream) => stream.next()));
    expect(hub.pollerCount).toBe(1);
    await Promise.all(streams.map((stream) => stream.return?.()));
  });
});
