import { applyLiveQueryJSONPatch } from "@n1ru4l/graphql-live-query-patch-json-patch";
import { describe, expect, it, vi } from "vitest";
import { EXAMPLE_OPERATION } from "../../src/gateway/pages/example-operation.ts";
import { WAIT_MS } from "../support/wait.ts";
import { ACME, GLOBEX } from "./harness.ts";
import {
  AGENT_ID,
  followGraphiQL,
  followMultipart,
  followSse,
  followSseSingleConnection,
  followWs,
  LIVE_AGENT,
  type LiveResult,
  names,
  renameOnUpstream,
  takeReads,
} from "./live-support.ts";
import { LIVE, SUBSCRIPTION, start, wsClient } from "./subscriptions-support.ts";

const AGENT_PATH = `/v1/agents/${AGENT_ID}`;

describe.concurrent("@live queries", () => {
  it("over graphql-ws: the answer, then a result only when it changed", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {});
    const client = wsClient(harness);
    onTestFinished(() => client.dispose() as Promise<void>);
    const live = followWs(client, LIVE_AGENT);
    const [first] = await live.count(1);
    expect(first?.data).toEqual({ agent: { id: AGENT_ID, name: expect.any(String) } });
    // Several polls of an unchanged agent push nothing.
    harness.sandbox.clearRequests();
    await vi.waitFor(() => expect(takeReadsKept(harness).length).toBeGreaterThanOrEqual(3), {
      timeout: WAIT_MS,
      interval: 10,
    });
    expect(live.results).toHaveLength(1);
    await renameOnUpstream(harness, "Front desk (live)");
    await live.count(2);
    expect(live.results).toHaveLength(2);
    expect(names(live.results).at(-1)).toBe("Front desk (live)");
    live.stop();
    await vi.waitFor(() => expect(harness.gateway.liveHub.pollerCount).toBe(0), {
      timeout: WAIT_MS,
    });
  });

  it("over SSE (graphql-sse's client): the same", async ({ onTestFinished }) => {
    const harness = await start(onTestFinished, {});
    const live = followSse(harness, LIVE_AGENT);
    onTestFinished(async () => live.stop());
    await live.count(1);
    await renameOnUpstream(harness, "Front desk (SSE)");
    await live.count(2);
    expect(names(live.results).at(-1)).toBe("Front desk (SSE)");
  });

  it("over graphql-sse's single connection and multipart HTTP: the same", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {});
    const single = followSseSingleConnection(harness, LIVE_AGENT);
    const multipart = followMultipart(harness, LIVE_AGENT);
    onTestFinished(async () => {
      single.stop();
      multipart.stop();
    });
    await single.count(1);
    await multipart.count(1);
    expect(harness.gateway.liveHub.pollerCount).toBe(1);
    await renameOnUpstream(harness, "Front desk (streams)");
    await single.count(2);
    await multipart.count(2);
    expect(names(single.results)).toEqual([expect.any(String), "Front desk (streams)"]);
    expect(names(multipart.results)).toEqual([expect.any(String), "Front desk (streams)"]);
  });

  it("runs GraphiQL's LiveCalls as GraphiQL sends it: calls start and end in it", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, { callIntervalMs: 200, callDurationMs: 600 });
    const live = followGraphiQL(harness, EXAMPLE_OPERATION, "LiveCalls");
    onTestFinished(async () => live.stop());
    const results = await live.count(3, 5_000);
    const idsOf = (result: LiveResult | undefined) =>
      JSON.stringify(
        (result?.data?.conversations as { nodes: Array<{ id: string }> } | undefined)?.nodes.map(
          (n) => n.id,
        ),
      );
    // Each push is a changed list: never the same calls twice in a row.
    for (let i = 1; i < results.length; i++) {
      expect(idsOf(results[i])).not.toBe(idsOf(results[i - 1]));
    }
  });

  it("answers a client that takes only JSON once, saying it is not live", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {});
    const response = await harness.graphql(LIVE_AGENT, { id: AGENT_ID });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ agent: { id: AGENT_ID, name: expect.any(String) } });
    expect(response.body.extensions?.live).toEqual({ live: false, reason: expect.any(String) });
    expect(harness.gateway.liveHub.pollerCount).toBe(0);
  });

  it("polls each read once per interval for every subscriber of the key", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {}, { pollIntervalMs: 200 });
    const clients = Array.from({ length: 5 }, () => wsClient(harness));
    onTestFinished(async () => {
      await Promise.all(clients.map((client) => client.dispose()));
    });
    const lives = clients.map((client) => followWs(client, LIVE_AGENT));
    await Promise.all(lives.map((live) => live.count(1)));
    expect(harness.gateway.liveHub.pollerCount).toBe(1);
    takeReads(harness, AGENT_PATH);
    const started = performance.now();
    await vi.waitFor(() => expect(takeReadsKept(harness).length).toBeGreaterThanOrEqual(4), {
      timeout: WAIT_MS,
      interval: 10,
    });
    const elapsed = performance.now() - started;
    const reads = takeReads(harness, AGENT_PATH);
    // One poller: at most one read per interval started, whatever the number of subscribers.
    expect(reads.length).toBeLessThanOrEqual(Math.floor(elapsed / 200) + 1);
    await renameOnUpstream(harness, "Shared desk");
    await Promise.all(lives.map((live) => live.count(2)));
    for (const live of lives) expect(names(live.results).at(-1)).toBe("Shared desk");
  });

  it("executes a change once for the subscribers of one query of one key", async ({
    onTestFinished,
  }) => {
    // Every run counted in voicegraph_query_runs_total, in every project (compiled from the first).
    const harness = await start(onTestFinished, {}, { compileAfter: 1 });
    const clients = Array.from({ length: 5 }, () => wsClient(harness));
    onTestFinished(async () => {
      await Promise.all(clients.map((client) => client.dispose()));
    });
    const lives = clients.map((client) => followWs(client, LIVE_AGENT));
    await Promise.all(lives.map((live) => live.count(1)));
    const before = await queryRuns(harness.url);
    await renameOnUpstream(harness, "Desk run once");
    await Promise.all(lives.map((live) => live.count(2)));
    // One execution for five subscribers (each would make five).
    expect((await queryRuns(harness.url)) - before).toBe(1);
  });

  it("times a live query's operation once, when its stream ends", async ({ onTestFinished }) => {
    const harness = await start(onTestFinished, {});
    const client = wsClient(harness);
    onTestFinished(() => client.dispose() as Promise<void>);
    const before = await timedQueries(harness.url);
    const live = followWs(client, LIVE_AGENT);
    await live.count(1);
    expect(await timedQueries(harness.url)).toBe(before);
    live.stop();
    await live.ended;
    await vi.waitFor(async () => expect(await timedQueries(harness.url)).toBe(before + 1), {
      timeout: WAIT_MS,
      interval: 10,
    });
  });

  it("pushes the answer once the upstream recovers from a failed first read", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {});
    // Every attempt of the first read fails (the harness's client retries twice).
    harness.sandbox.injectFault({ path: AGENT_PATH, status: 503, times: 3 });
    const client = wsClient(harness);
    onTestFinished(() => client.dispose() as Promise<void>);
    const live = followWs(client, LIVE_AGENT);
    const [first] = await live.count(1);
    expect(first?.data?.agent).toBeNull();
    expect(first?.errors?.map((error) => error.extensions?.code)).toEqual(["UPSTREAM_ERROR"]);
    const [, recovered] = await live.count(2);
    expect(recovered?.data?.agent).toEqual({ id: AGENT_ID, name: expect.any(String) });
    expect(recovered?.errors).toBeUndefined();
  });

  it("pushes at once after a write through the gateway", async ({ onTestFinished }) => {
    const harness = await start(onTestFinished, {}, { pollIntervalMs: 60_000 });
    const client = wsClient(harness);
    onTestFinished(() => client.dispose() as Promise<void>);
    const live = followWs(client, LIVE_AGENT);
    await live.count(1);
    const written = await harness.graphql(
      `mutation { updateAgent(id: "${AGENT_ID}", input: { name: "Written desk" }) { agent { id } } }`,
    );
    expect(written.body.errors).toBeUndefined();
    await live.count(2, 2_000);
    expect(names(live.results).at(-1)).toBe("Written desk");
  });

  it("never shares a poller or a result across keys", async ({ onTestFinished }) => {
    const harness = await start(onTestFinished, {});
    const acme = wsClient(harness, ACME);
    const globex = wsClient(harness, GLOBEX);
    onTestFinished(async () => {
      await acme.dispose();
      await globex.dispose();
    });
    const query = /* GraphQL */ `query Org @live { organization { id name } }`;
    const acmeLive = followWs(acme, query, {});
    const globexLive = followWs(globex, query, {});
    await acmeLive.count(1);
    await globexLive.count(1);
    expect(harness.gateway.liveHub.pollerCount).toBe(2);
    expect(acmeLive.results[0]?.data).not.toEqual(globexLive.results[0]?.data);
    const renamed = await fetch(`${harness.sandbox.url}/v1/organization`, {
      method: "PATCH",
      headers: { authorization: ACME, "content-type": "application/json" },
      body: JSON.stringify({ name: "Acme Live" }),
    });
    expect(renamed.status).toBe(200);
    await acmeLive.count(2);
    expect(globexLive.results).toHaveLength(1);
  });

  it("holds a query's rules: no key, or past the depth limit, is refused before any call", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {}, { maxDepth: 2 });
    harness.sandbox.clearRequests();
    const keyless = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ query: LIVE_AGENT, variables: { id: AGENT_ID } }),
    });
    expect(await keyless.text()).toContain('"code":"UNAUTHENTICATED"');
    const client = wsClient(harness);
    onTestFinished(() => client.dispose() as Promise<void>);
    const deep = followWs(
      client,
      /* GraphQL */ `query Deep($id: ID!) @live { agent(id: $id) { voiceConfigs { id } } }`,
    );
    const errors = (await deep.ended.then(
      () => deep.results[0]?.errors ?? [],
      (refusal: unknown) => refusal,
    )) as Array<{ extensions?: { code?: unknown } }>;
    expect(errors.map((error) => error.extensions?.code)).toEqual(["DEPTH_LIMIT_EXCEEDED"]);
    expect(harness.takeUpstreamRequests()).toEqual([]);
    expect(harness.gateway.liveHub.pollerCount).toBe(0);
  });

  it("refuses a live query past MAX_LIVE_QUERY_READS", async ({ onTestFinished }) => {
    const harness = await start(onTestFinished, {}, { live: { maxReads: 1 } });
    const client = wsClient(harness);
    onTestFinished(() => client.dispose() as Promise<void>);
    const live = followWs(
      client,
      /* GraphQL */ `query Two($id: ID!) @live { agent(id: $id) { id } organization { id } }`,
    );
    harness.sandbox.clearRequests();
    // The refusal is the operation's one result, and its stream ends.
    await live.ended;
    expect(live.results).toEqual([
      expect.objectContaining({
        errors: [
          expect.objectContaining({
            extensions: expect.objectContaining({ code: "COST_LIMIT_EXCEEDED" }),
          }),
        ],
      }),
    ]);
    // Refused from the static estimate, before any upstream call.
    expect(harness.takeUpstreamRequests()).toEqual([]);
    expect(harness.gateway.liveHub.pollerCount).toBe(0);
  });

  it("counts a live query as a subscription of its connection", async ({ onTestFinished }) => {
    const harness = await start(
      onTestFinished,
      {},
      {
        bounds: { maxSubscriptionsPerConnection: 1 },
      },
    );
    const client = wsClient(harness);
    onTestFinished(() => client.dispose() as Promise<void>);
    const first = followWs(client, LIVE_AGENT);
    await first.count(1);
    const second = followWs(client, LIVE_AGENT);
    // The refusal is the operation's one result, and its stream ends.
    await second.ended;
    expect(second.results).toEqual([
      expect.objectContaining({
        errors: [
          expect.objectContaining({
            extensions: expect.objectContaining({ code: "SUBSCRIPTION_LIMIT_EXCEEDED" }),
          }),
        ],
      }),
    ]);
  });

  it("gives its place in the counts back once it ends", async ({ onTestFinished }) => {
    const harness = await start(onTestFinished, {}, { bounds: { maxSubscriptionsPerKey: 1 } });
    const client = wsClient(harness);
    onTestFinished(() => client.dispose() as Promise<void>);
    const first = followWs(client, LIVE_AGENT);
    await first.count(1);
    first.stop();
    await first.ended;
    // The key's one place is free again once the gateway has heard the first end.
    await vi.waitFor(
      async () => {
        const next = followWs(client, LIVE_AGENT);
        const [answer] = await next.count(1);
        next.stop();
        expect(answer?.errors).toBeUndefined();
      },
      { timeout: WAIT_MS, interval: 20 },
    );
  });

  it("counts live queries and subscriptions of one key together", async ({ onTestFinished }) => {
    const harness = await start(
      onTestFinished,
      { callDurationMs: 60_000 },
      { bounds: { maxSubscriptionsPerKey: 1 } },
    );
    const client = wsClient(harness);
    onTestFinished(() => client.dispose() as Promise<void>);
    const status = followWs(client, SUBSCRIPTION, { id: LIVE });
    await status.count(1);
    const other = wsClient(harness);
    onTestFinished(() => other.dispose() as Promise<void>);
    const live = followWs(other, LIVE_AGENT);
    await live.ended.catch(() => undefined);
    expect(live.results).toEqual([
      expect.objectContaining({
        errors: [
          expect.objectContaining({
            extensions: expect.objectContaining({
              code: "SUBSCRIPTION_LIMIT_EXCEEDED",
              subscriptions: { limit: 1, scope: "key" },
            }),
          }),
        ],
      }),
    ]);
  });

  it("sends JSON Patches on request, in the shape the n1ru4l client helper applies", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, {});
    const client = wsClient(harness);
    onTestFinished(() => client.dispose() as Promise<void>);
    const live = followWs(client, LIVE_AGENT, { id: AGENT_ID }, { livePatch: "json-patch" });
    const [first] = await live.count(1);
    expect(first?.revision).toBe(1);
    await renameOnUpstream(harness, "Patched desk");
    const [, second] = await live.count(2);
    expect(second).toEqual({
      revision: 2,
      patch: [{ op: "replace", path: "/agent/name", value: "Patched desk" }],
    });
    const applied: LiveResult[] = [];
    for await (const result of applyLiveQueryJSONPatch(asyncOf(live.results.slice(0, 2)))) {
      applied.push(result as LiveResult);
    }
    expect(applied.map((result) => result.data)).toEqual([
      first?.data,
      { agent: { id: AGENT_ID, name: "Patched desk" } },
    ]);
  });
});

/** Queries run so far, however they ran (`voicegraph_query_runs_total`). */
async function queryRuns(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("voicegraph_query_runs_total{"))
    .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
}

/** Queries whose operation was timed (`voicegraph_operation_duration_seconds`). */
async function timedQueries(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text
    .split("\n")
    .find((row) => row.startsWith('voicegraph_operation_duration_seconds_count{type="query"}'));
  return Number(line?.split(" ").at(-1) ?? 0);
}

/** GETs of the agent since the last take, without clearing (others count them too). */
function takeReadsKept(harness: {
  sandbox: { requests: Array<{ method: string; path: string }> };
}) {
  return harness.sandbox.requests.filter(
    (request) => request.method === "GET" && request.path === AGENT_PATH,
  );
}

async function* asyncOf<T>(values: T[]): AsyncIterableIterator<T> {
  for (const value of values) yield value;
}
