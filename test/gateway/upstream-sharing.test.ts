import type { ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { manualClock } from "../support/clock.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { type GatedUpstream, startGatedUpstream } from "../support/gated-upstream.ts";
import { WAIT_MS } from "../support/wait.ts";
import { sendJson, startRecordingUpstream } from "../upstream/recording-upstream.ts";
import { ACME, GLOBEX, type Harness, startHarness } from "./harness.ts";

// Identical upstream GETs of one key in flight at once share one call; two keys never
// share anything; writes never coalesce; and the opt-in read cache of single-resource reads.

const closing = closedAfterEachTest();
const AGENT = SEED_IDS.acmeAgent;
const DASHBOARD = `{ agent(id: "${AGENT}") { id name } organization { id name } }`;

type Cost = { estimated: number; upstreamCalls: number; joinedCalls?: number; cacheHits?: number };
const costOf = (answer: { body: { extensions?: Record<string, unknown> } }) =>
  answer.body.extensions?.cost as Cost;
const sum = (costs: Cost[], field: keyof Cost) => costs.reduce((n, c) => n + (c[field] ?? 0), 0);

async function metricsOf(harness: Harness) {
  return (await fetch(`${harness.url}/metrics`)).text();
}

/** Opens the gate once `joined` reads have joined the two calls it holds. */
async function openOnceJoined(harness: Harness, gate: GatedUpstream, joined: number) {
  await vi.waitFor(
    async () => {
      expect(await joinedSoFar(harness)).toBe(joined);
      expect(gate.heldCount()).toBe(2);
    },
    { timeout: WAIT_MS },
  );
  gate.open();
}

/** Reads that have joined a call in flight so far, every route: /metrics counts each as it joins. */
async function joinedSoFar(harness: Harness): Promise<number> {
  const joined = (await metricsOf(harness)).matchAll(
    /^voicegraph_upstream_shared_total\{.*how="joined"\} (\d+)$/gm,
  );
  return [...joined].reduce((sum, [, count]) => sum + Number(count), 0);
}

describe("coalescing identical upstream calls", () => {
  it("makes one call per distinct resource for 50 concurrent identical operations of one key", async () => {
    // The upstream holds both calls until all 50 operations have joined them. The key is
    // accepted first: a key not yet accepted is probed with one call before the others.
    const gate = closing(await startGatedUpstream());
    const harness = closing(
      await startHarness({ upstream: { baseUrl: gate.url, timeoutMs: 60_000 } }),
    );
    gate.forwardTo(harness.sandbox.url);
    gate.open();
    await harness.graphql("{ organization { id } }");
    gate.hold();
    const before = gate.requests.length;
    const pending = Promise.all(Array.from({ length: 50 }, () => harness.graphql(DASHBOARD)));
    await openOnceJoined(harness, gate, 98);
    const answers = await pending;
    for (const answer of answers) {
      expect(answer.body.data).toMatchObject({
        agent: { id: AGENT },
        organization: { id: "org_acme" },
      });
    }
    const made = gate.requests.slice(before);
    expect(made.map((request) => `${request.method} ${request.url}`).sort()).toEqual([
      `GET /v1/agents/${AGENT}`,
      "GET /v1/organization",
    ]);
    const costs = answers.map(costOf);
    // Each operation tells its own calls from the ones it joined: 2 made, 98 joined in all.
    expect(sum(costs, "upstreamCalls")).toBe(2);
    expect(sum(costs, "joinedCalls")).toBe(98);
    for (const cost of costs) expect(cost.upstreamCalls + (cost.joinedCalls ?? 0)).toBe(2);
    expect(await metricsOf(harness)).toMatch(
      /^voicegraph_upstream_shared_total\{route="GET \/v1\/organization",how="joined"\} 49$/m,
    );
    expect(await metricsOf(harness)).toMatch(
      /^voicegraph_upstream_requests_total\{route="GET \/v1\/organization",status="200"\} 2$/m,
    );
  });

  it("never shares a call across keys", async () => {
    // The upstream holds its answers until 18 of the 20 operations have joined a call.
    const gate = closing(await startGatedUpstream());
    const harness = closing(
      await startHarness({ upstream: { baseUrl: gate.url, timeoutMs: 60_000 } }),
    );
    gate.forwardTo(harness.sandbox.url);
    const pending = Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        harness.graphql(
          "{ organization { id name } }",
          {},
          { authorization: i % 2 ? GLOBEX : ACME },
        ),
      ),
    );
    await openOnceJoined(harness, gate, 18);
    const answers = await pending;
    answers.forEach((answer, i) => {
      expect(answer.body.data).toMatchObject({
        organization: { id: i % 2 ? "org_globex" : "org_acme" },
      });
    });
    const auths = gate.requests.map((request) => request.headers.authorization).sort();
    expect(auths).toEqual([ACME, GLOBEX]);
  });

  it("never coalesces writes", async () => {
    const harness = closing(await startHarness({ sandbox: { latencyMs: 50 } }));
    const mutation =
      'mutation { updateOrganization(input: { city: "Same" }) { organization { city } } }';
    await Promise.all([1, 2, 3].map(() => harness.graphql(mutation)));
    expect(harness.takeUpstreamRequests()).toEqual(Array(3).fill("PATCH /v1/organization"));
  });

  it("shares a call only when the request is the same on the wire", async () => {
    // A search holding "&startDate=" must not pass for the search plus a startDate filter.
    const harness = closing(await startHarness({ sandbox: { latencyMs: 100 } }));
    const STARTED = "2026-01-01T00:00:00.000Z";
    const B = `conversations(first: 50, filter: { search: "x", startDate: "${STARTED}" }) { totalCount nodes { id } }`;
    const alone = await harness.graphql(`{ b: ${B} }`);
    const expected = (alone.body.data as { b: { nodes: unknown[] } }).b;
    harness.takeUpstreamRequests();
    const both = await harness.graphql(
      `{ a: conversations(first: 50, filter: { search: "x&startDate=${STARTED}" }) { totalCount nodes { id } } b: ${B} }`,
    );
    const data = both.body.data as { a: { nodes: unknown[] }; b: { nodes: unknown[] } };
    expect(data.b).toEqual(expected);
    expect(data.a).not.toEqual(expected);
    expect(harness.takeUpstreamRequests()).toHaveLength(2);
    expect(costOf(both)).toMatchObject({ upstreamCalls: 2 });
  });

  it("shares nothing with UPSTREAM_COALESCE off", async () => {
    const harness = closing(
      await startHarness({ sandbox: { latencyMs: 50 }, gateway: { sharing: { coalesce: false } } }),
    );
    await Promise.all(Array.from({ length: 10 }, () => harness.graphql(DASHBOARD)));
    expect(harness.takeUpstreamRequests()).toHaveLength(20);
  });

  it("lets a waiter be cancelled without cancelling the call for the others", async () => {
    const held: ServerResponse[] = [];
    let closedEarly = 0;
    const upstream = closing(
      await startRecordingUpstream((_request, res) => {
        res.on("close", () => {
          if (!res.writableEnded) closedEarly += 1;
        });
        held.push(res);
      }),
    );
    const harness = closing(
      await startHarness({ upstream: { baseUrl: upstream.url, maxRetries: 0 } }),
    );
    const leaving = new AbortController();
    const first = fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: ACME },
      body: JSON.stringify({ query: "{ organization { id name } }" }),
      signal: leaving.signal,
    }).catch((error: unknown) => error);
    await vi.waitFor(() => expect(upstream.requests).toHaveLength(1), { timeout: WAIT_MS });
    const staying = harness.graphql("{ organization { id name } }");
    // Nothing outside the gateway shows a join until its call ends: a window for it to join.
    await sleep(100);
    leaving.abort();
    await first;
    // A window for a cancelled call to reach the upstream, were the waiter's abort to cancel it.
    await sleep(100);
    expect(upstream.requests).toHaveLength(1);
    for (const res of held) sendJson(res, 200, { id: "org_x", name: "Still here" });
    const answer = await staying;
    expect(answer.body.data).toEqual({ organization: { id: "org_x", name: "Still here" } });
    expect(costOf(answer)).toMatchObject({ upstreamCalls: 0, joinedCalls: 1 });
    expect(closedEarly).toBe(0);
  });

  it("gives each waiter its own error, with its own request ID", async () => {
    const upstream = closing(
      await startRecordingUpstream(async (_request, res) => {
        await sleep(150);
        sendJson(res, 404, {
          error: { code: "NOT_FOUND", message: "No such agent" },
          requestId: "up_1",
        });
      }),
    );
    const harness = closing(
      await startHarness({ upstream: { baseUrl: upstream.url, maxRetries: 0 } }),
    );
    const responses = await Promise.all(
      [1, 2, 3].map((n) =>
        fetch(`${harness.url}/graphql`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: ACME,
            "x-request-id": `mine-${n}`,
          },
          body: JSON.stringify({ query: '{ agent(id: "agt_gone") { id } }' }),
        }),
      ),
    );
    expect(upstream.requests).toHaveLength(1);
    const bodies = await Promise.all(responses.map((response) => response.json()));
    bodies.forEach((body, i) => {
      const error = body.errors[0];
      expect(error.extensions).toMatchObject({
        code: "NOT_FOUND",
        requestId: `mine-${i + 1}`,
        upstream: { status: 404, code: "NOT_FOUND", requestId: "up_1" },
      });
      expect(body.data).toEqual({ agent: null });
    });
  });
});

describe("the read cache (UPSTREAM_CACHE_TTL_S)", () => {
  const cached = (ttlS = 60) => startHarness({ gateway: { sharing: { cacheTtlS: ttlS } } });

  it("answers a repeated single-resource read with no upstream call, and says so", async () => {
    const harness = closing(await cached());
    const first = await harness.graphql(DASHBOARD);
    const second = await harness.graphql(DASHBOARD);
    expect(second.body.data).toEqual(first.body.data);
    expect(harness.takeUpstreamRequests()).toHaveLength(2);
    expect(costOf(second)).toMatchObject({ upstreamCalls: 0, cacheHits: 2 });
    expect(await metricsOf(harness)).toMatch(
      /^voicegraph_upstream_shared_total\{route="GET \/v1\/agents\/\{id\}",how="cached"\} 1$/m,
    );
  });

  it("sees its own write at once: the write invalidates what it changed before it answers", async () => {
    const harness = closing(await cached());
    await harness.graphql(DASHBOARD);
    await harness.graphql(
      `mutation { updateAgent(id: "${AGENT}", input: { name: "Renamed" }) { agent { id } } }`,
    );
    await harness.graphql(
      'mutation { updateOrganization(input: { name: "Acme Renamed" }) { organization { id } } }',
    );
    const after = await harness.graphql(DASHBOARD);
    expect(after.body.data).toMatchObject({
      agent: { name: "Renamed" },
      organization: { name: "Acme Renamed" },
    });
    expect(costOf(after).cacheHits ?? 0).toBe(0);
  });

  it("is bypassed for one request by Cache-Control: no-cache", async () => {
    const harness = closing(await cached());
    await harness.graphql(DASHBOARD);
    harness.takeUpstreamRequests();
    const fresh = await harness.graphql(
      DASHBOARD,
      {},
      { headers: { "cache-control": "no-cache" } },
    );
    expect(harness.takeUpstreamRequests()).toHaveLength(2);
    expect(costOf(fresh)).toMatchObject({ upstreamCalls: 2 });
  });

  it("never keeps lists, the live status, errors, or another key's answer", async () => {
    const harness = closing(await cached());
    const list = "{ conversations(first: 2) { nodes { id } } }";
    await harness.graphql(list);
    await harness.graphql(list);
    const missing = '{ agent(id: "agt_missing") { id } }';
    await harness.graphql(missing);
    await harness.graphql(missing);
    const organization = "{ organization { id } }";
    expect((await harness.graphql(organization)).body.data).toEqual({
      organization: { id: "org_acme" },
    });
    expect((await harness.graphql(organization, {}, { authorization: GLOBEX })).body.data).toEqual({
      organization: { id: "org_globex" },
    });
    const requests = harness.takeUpstreamRequests().map((request) => request.split("?")[0]);
    expect(requests.filter((r) => r === "GET /v1/conversations")).toHaveLength(2);
    expect(requests.filter((r) => r === "GET /v1/agents/agt_missing")).toHaveLength(2);
    expect(requests.filter((r) => r === "GET /v1/organization")).toHaveLength(2);
  });

  it("forgets an answer after its TTL", async () => {
    const clock = manualClock();
    const harness = closing(
      await startHarness({ gateway: { sharing: { cacheTtlS: 1 }, now: clock.now } }),
    );
    await harness.graphql("{ organization { id } }");
    clock.advance(999);
    await harness.graphql("{ organization { id } }");
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
    clock.advance(2);
    await harness.graphql("{ organization { id } }");
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
  });
});
