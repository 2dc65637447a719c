import { describe, expect, it } from "vitest";
import { createSessionVerifier } from "../../src/gateway/session/verify-session.ts";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { SESSION_SECRET, sessionToken } from "../support/session-token.ts";
import type { Harness } from "./harness.ts";
import {
  AGENT_ID,
  followSse,
  followWs,
  LIVE_AGENT,
  type LiveResult,
  names,
  takeReads,
} from "./live-support.ts";
import { LIVE, SUBSCRIPTION, start, wsClient } from "./subscriptions-support.ts";

// One lifecycle for every long-lived operation: a key the upstream refuses ends it after one
// result and costs nothing after, a session's expiry ends it, and a write answered anywhere is
// what a new live query starts from.

const AGENT_PATH = `/v1/agents/${AGENT_ID}`;
const MADE_UP = "Bearer sk_test_made_up";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const codes = (result: LiveResult | undefined) =>
  (result?.errors ?? []).map((error) => error.extensions?.code);

/** Upstream requests the sandbox received with this key since the harness started. */
const callsWith = (harness: Harness, authorization: string) =>
  harness.sandbox.requests.filter((request) => request.headers.authorization === authorization)
    .length;

describe.concurrent("the lifecycle of live operations", () => {
  it("ends a refused key's live query after one result, holding no slot and calling nothing after", async ({
    onTestFinished,
  }) => {
    const harness = await start(
      onTestFinished,
      {},
      { pollIntervalMs: 50, bounds: { maxSubscriptionsTotal: 2 } },
    );
    const forged = Array.from({ length: 4 }, () => wsClient(harness, MADE_UP));
    const valid = wsClient(harness);
    onTestFinished(async () => {
      await Promise.all([...forged, valid].map((client) => client.dispose()));
    });
    const refused = forged.map((client) => followWs(client, LIVE_AGENT));
    refused.push(followSse(harness, LIVE_AGENT, { id: AGENT_ID }, MADE_UP));
    await Promise.all(refused.map((live) => live.ended));
    for (const live of refused) {
      expect(live.results).toHaveLength(1);
      expect(codes(live.results[0])).toContain("UNAUTHENTICATED");
    }
    const calls = callsWith(harness, MADE_UP);
    // Five refused streams did not fill a server bound of two: a valid key still follows.
    const live = followWs(valid, LIVE_AGENT);
    await live.count(1);
    expect(live.results[0]?.errors).toBeUndefined();
    await sleep(300);
    expect(callsWith(harness, MADE_UP)).toBe(calls);
    expect(harness.gateway.liveHub.pollerCount).toBe(1);
  });

  it("ends a live query and a subscription whose key is revoked mid-stream, and stops reading", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {}, { pollIntervalMs: 50 });
    const client = wsClient(harness);
    onTestFinished(() => client.dispose() as Promise<void>);
    const live = followWs(client, LIVE_AGENT);
    const status = followWs(client, SUBSCRIPTION, { id: LIVE });
    await Promise.all([live.count(1), status.count(1)]);
    // From now on the upstream refuses the key, as it does a revoked one.
    harness.sandbox.injectFault({ path: /^\/v1\//, status: 401, times: 1_000 });
    await Promise.all([live.ended, status.ended]);
    expect(codes(live.results.at(-1))).toEqual(["UNAUTHENTICATED"]);
    expect(codes(status.results.at(-1))).toEqual(["UNAUTHENTICATED"]);
    const calls = harness.sandbox.requests.length;
    await sleep(300);
    expect(harness.sandbox.requests.length).toBe(calls);
    expect(harness.gateway.liveHub.pollerCount).toBe(0);
  });

  it("ends live queries and subscriptions at their session's expiry, with UNAUTHENTICATED", async ({
    onTestFinished,
  }) => {
    const harness = await start(
      onTestFinished,
      {},
      {
        pollIntervalMs: 100,
        session: {
          verify: createSessionVerifier({ secret: SESSION_SECRET, clockSkewSeconds: 0 }),
          keys: new Map([["org_acme", DEMO_KEYS.acme]]),
        },
      },
    );
    const expiresAt = Math.ceil(Date.now() / 1000) + 2;
    const token = await sessionToken({
      subject: "short-lived",
      expires: expiresAt,
    });
    const client = wsClient(harness, `Bearer ${token}`);
    onTestFinished(() => client.dispose() as Promise<void>);
    const live = followWs(client, LIVE_AGENT);
    const status = followWs(client, SUBSCRIPTION, { id: LIVE });
    await Promise.all([live.count(1), status.count(1)]);
    await Promise.all([live.ended, status.ended]);
    const endedAt = Date.now();
    expect(endedAt).toBeGreaterThanOrEqual(expiresAt * 1000);
    expect(codes(live.results.at(-1))).toEqual(["UNAUTHENTICATED"]);
    expect(codes(status.results.at(-1))).toEqual(["UNAUTHENTICATED"]);
    takeReads(harness, AGENT_PATH);
    await sleep(400);
    expect(takeReads(harness, AGENT_PATH)).toEqual([]);
    expect(harness.gateway.liveHub.pollerCount).toBe(0);
  });

  it("starts a live query opened right after a write from the written value", async ({
    onTestFinished,
  }) => {
    // A long interval: only the write's own re-read could refresh the poller in time.
    const harness = await start(onTestFinished, {}, { pollIntervalMs: 60_000 });
    const first = wsClient(harness);
    const second = wsClient(harness);
    onTestFinished(async () => {
      await Promise.all([first.dispose(), second.dispose()]);
    });
    const followed = followWs(first, LIVE_AGENT);
    await followed.count(1);
    for (let round = 1; round <= 8; round++) {
      const name = `Desk ${round}`;
      const written = await harness.graphql(
        `mutation { updateAgent(id: "${AGENT_ID}", input: { name: "${name}" }) { agent { id } } }`,
      );
      expect(written.body.errors).toBeUndefined();
      const opened = followWs(second, LIVE_AGENT);
      await opened.count(1);
      expect(names(opened.results)[0]).toBe(name);
      opened.stop();
    }
  });

  it("counts each read of a poller once in voicegraph_upstream_requests_total", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {}, { pollIntervalMs: 300 });
    const clients = Array.from({ length: 3 }, () => wsClient(harness));
    onTestFinished(async () => {
      await Promise.all(clients.map((client) => client.dispose()));
    });
    const before = await agentReadsCounted(harness);
    takeReads(harness, AGENT_PATH);
    const answered = () =>
      harness.sandbox.requests.filter(
        (request) => request.method === "GET" && request.path === AGENT_PATH && request.status > 0,
      ).length;
    const lives = clients.map((client) => followWs(client, LIVE_AGENT));
    await Promise.all(lives.map((live) => live.count(1)));
    // Stopped right after a poll was answered: none is in flight, none is abandoned.
    const target = answered() + 3;
    while (answered() < target) await sleep(5);
    for (const live of lives) live.stop();
    await sleep(100);
    const reads = harness.sandbox.requests.filter(
      (request) => request.method === "GET" && request.path === AGENT_PATH,
    ).length;
    expect(reads).toBeGreaterThanOrEqual(4);
    expect((await agentReadsCounted(harness)) - before).toBe(reads);
  });

  it("reports the first live result's upstream traffic as the plain answer does", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {}, { pollIntervalMs: 60_000 });
    const client = wsClient(harness);
    onTestFinished(() => client.dispose() as Promise<void>);
    const plain = await harness.graphql(LIVE_AGENT.replace("@live", ""), { id: AGENT_ID });
    const live = followWs(client, LIVE_AGENT);
    await live.count(1);
    const extensions = live.results[0]?.extensions ?? {};
    expect(Object.keys(extensions).sort()).toEqual(Object.keys(plain.body.extensions ?? {}).sort());
    expect(extensions.cost).toEqual(plain.body.extensions?.cost);
    expect(extensions.rateLimit).toMatchObject({
      limit: expect.any(Number),
      remaining: expect.any(Number),
    });
  });

  it("answers `@live(if: null)` once, saying it is not kept current", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {}, { pollIntervalMs: 50 });
    const client = wsClient(harness);
    onTestFinished(() => client.dispose() as Promise<void>);
    const query = `query Off($on: Boolean) @live(if: $on) { agent(id: "${AGENT_ID}") { id name } }`;
    const off = followWs(client, query, { on: null });
    await off.ended;
    expect(off.results).toHaveLength(1);
    expect(off.results[0]?.extensions?.live).toMatchObject({ live: false });
    expect(harness.gateway.liveHub.pollerCount).toBe(0);
  });
});

async function agentReadsCounted(harness: Harness): Promise<number> {
  const text = await (await fetch(`${harness.url}/metrics`)).text();
  return text
    .split("\n")
    .filter((line) =>
      line.startsWith(
        'voicegraph_upstream_requests_total{route="GET /v1/agents/{id}",status="200"}',
      ),
    )
    .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
}
