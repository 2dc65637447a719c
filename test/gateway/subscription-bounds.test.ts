import { setTimeout as sleep } from "node:timers/promises";
import type { Client } from "graphql-ws";
import { describe, expect, it, vi } from "vitest";
import { manualClock } from "../support/clock.ts";
import { WAIT_MS } from "../support/wait.ts";
import { sendJson, startRecordingUpstream } from "../upstream/recording-upstream.ts";
import { GLOBEX, type Harness, startHarness } from "./harness.ts";
import {
  LIVE,
  type Payload,
  SUBSCRIPTION,
  start,
  takePolls,
  wsClient,
} from "./subscriptions-support.ts";

// Subscriptions within bounds, over graphql-ws: per socket, per key and per
// instance, each event resolved once per selection, within a per-event upstream budget.

interface Followed {
  payloads: Payload[];
  done: Promise<void>;
  stop(): void;
}

function follow(client: Client, id: string, query = SUBSCRIPTION): Followed {
  const payloads: Payload[] = [];
  let stop: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    stop = client.subscribe(
      { query, variables: { id } },
      {
        next: (payload) => payloads.push(payload as Payload),
        error: () => resolve(),
        complete: () => resolve(),
      },
    );
  });
  return { payloads, done, stop };
}

const codeOf = (followed: Followed) => followed.payloads[0]?.errors?.[0]?.extensions?.code;

async function firstPayloads(all: Followed[]) {
  await vi.waitFor(() => expect(all.every((one) => one.payloads.length > 0)).toBe(true), {
    timeout: WAIT_MS,
    interval: 10,
  });
}

/** Upstream requests of operation 7 (the list read behind `conversation`) since the last take. */
function takeListCalls(harness: Harness): number {
  const calls = harness.sandbox.requests.filter(
    (request) => request.method === "GET" && request.path === "/v1/conversations",
  ).length;
  harness.sandbox.clearRequests();
  return calls;
}

describe.concurrent("subscription bounds", () => {
  it("refuses past the bound per socket, per key and per instance, and counts ended ones out", async ({
    onTestFinished,
  }) => {
    const harness = await start(
      onTestFinished,
      { callDurationMs: 60_000 },
      {
        bounds: {
          maxSubscriptionsPerConnection: 3,
          maxSubscriptionsPerKey: 5,
          maxSubscriptionsTotal: 7,
        },
      },
    );
    const first = wsClient(harness);
    const second = wsClient(harness);
    const globex = wsClient(harness, GLOBEX);
    onTestFinished(async () => {
      await Promise.all([first.dispose(), second.dispose(), globex.dispose()]);
    });
    const onFirst = [1, 2, 3, 4].map(() => follow(first, LIVE));
    await firstPayloads(onFirst);
    expect(onFirst.slice(0, 3).map(codeOf)).toEqual([undefined, undefined, undefined]);
    expect(codeOf(onFirst[3] as Followed)).toBe("SUBSCRIPTION_LIMIT_EXCEEDED");
    expect(onFirst[3]?.payloads[0]?.errors?.[0]?.extensions?.subscriptions).toEqual({
      limit: 3,
      scope: "connection",
    });

    const onSecond = [1, 2, 3].map(() => follow(second, LIVE));
    await firstPayloads(onSecond);
    expect(onSecond.map(codeOf)).toEqual([undefined, undefined, "SUBSCRIPTION_LIMIT_EXCEEDED"]);
    expect(onSecond[2]?.payloads[0]?.errors?.[0]?.extensions?.subscriptions).toMatchObject({
      scope: "key",
    });

    const onGlobex = [1, 2, 3].map(() => follow(globex, "cnv_globex_live_1"));
    await firstPayloads(onGlobex);
    expect(onGlobex.map(codeOf)).toEqual([undefined, undefined, "SUBSCRIPTION_LIMIT_EXCEEDED"]);
    expect(onGlobex[2]?.payloads[0]?.errors?.[0]?.extensions?.subscriptions).toMatchObject({
      scope: "server",
    });

    // One ended: its place is free again, once the server has seen the stop.
    onGlobex[0]?.stop();
    await vi.waitFor(
      async () => {
        const again = follow(globex, "cnv_globex_live_1");
        await firstPayloads([again]);
        if (codeOf(again) !== undefined) again.stop();
        expect(codeOf(again)).toBeUndefined();
      },
      { timeout: WAIT_MS, interval: 50 },
    );
  });

  it("holds one socket asking for 200 subscriptions on distinct IDs to the per-socket bound upstream", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, { callDurationMs: 60_000 });
    const client = wsClient(harness);
    onTestFinished(() => client.dispose());
    const ids = Array.from({ length: 200 }, (_, i) => `cnv_acme_${String(i + 1).padStart(4, "0")}`);
    const all = ids.map((id) => follow(client, id));
    await firstPayloads(all);
    const refused = all.filter((one) => codeOf(one) === "SUBSCRIPTION_LIMIT_EXCEEDED").length;
    // The default bound per connection: 25 live at once; the rest refused without an upstream
    // call (a few more may be accepted as ended calls' streams complete and free their place).
    expect(refused).toBeGreaterThanOrEqual(150);
    harness.sandbox.clearRequests();
    const from = performance.now();
    await sleep(1_000);
    const upstreamCalls = harness.sandbox.requests.length;
    const seconds = (performance.now() - from) / 1000;
    console.info(`200 asked on one socket: ${refused} refused, ${upstreamCalls / seconds} calls/s`);
    // At most 25 pollers at 10 polls a second (interval 100 ms), and their events' list reads:
    // no more than 2 × 25 × 10 calls a second, where 200 subscriptions made 2,000.
    expect(upstreamCalls / seconds).toBeLessThanOrEqual(2 * 25 * 11);
  });

  it("resolves each event once for all the subscribers of one selection: one poll, one list read", async ({
    onTestFinished,
  }) => {
    const harness = await start(onTestFinished, { callDurationMs: 60_000 });
    const clients = [wsClient(harness), wsClient(harness), wsClient(harness), wsClient(harness)];
    onTestFinished(async () => {
      await Promise.all(clients.map((client) => client.dispose()));
    });
    // 80 subscribers of one live call on four sockets, all selecting `conversation { id status }`.
    const all = clients.flatMap((client) => Array.from({ length: 20 }, () => follow(client, LIVE)));
    await firstPayloads(all);
    expect(all.map(codeOf).filter((code) => code !== undefined)).toEqual([]);
    takeListCalls(harness);
    takePolls(harness);
    const before = all.map((one) => one.payloads.length);
    const newEvents = () =>
      Math.min(...all.map((one, i) => one.payloads.length - (before[i] ?? 0)));
    // The duration changes once a second: every subscriber sees two events, however slowly.
    await vi.waitFor(() => expect(newEvents()).toBeGreaterThanOrEqual(2), {
      timeout: WAIT_MS,
      interval: 20,
    });
    const events = newEvents();
    const listCalls = takeListCalls(harness);
    console.info(`80 subscribers of one call: ${events} events, ${listCalls} list calls`);
    // One list read per event (plus one when an event lands on the window's edge), not 80.
    expect(listCalls).toBeLessThanOrEqual(events + 1);
    expect(listCalls).toBeGreaterThanOrEqual(1);
    // Every subscriber saw the same conversation.
    const last = all.map((one) => JSON.stringify(one.payloads.at(-1)?.data));
    expect(new Set(last).size).toBeLessThanOrEqual(2);
  });

  it("resolves each event of a heavy selection once for five subscribers, within the budget", async ({
    onTestFinished,
  }) => {
    // The sandbox's clock stands still: the call's status never changes, so its first event is
    // the only one, however slowly a busy machine delivers it.
    const clock = manualClock();
    const harness = await start(onTestFinished, { callDurationMs: 60_000, now: clock.now });
    const client = wsClient(harness);
    onTestFinished(() => client.dispose());
    const heavy = /* GraphQL */ `
      subscription Heavy($id: ID!) {
        conversationStatus(id: $id) {
          duration
          conversation { agent { conversations(first: 100) { nodes {
            agent { stats } contact { stats }
          } } } }
        }
      }
    `;
    const loadsOfFirstEvents = async (subscribers: number) => {
      harness.sandbox.clearRequests();
      const all = Array.from({ length: subscribers }, () => follow(client, LIVE, heavy));
      await firstPayloads(all);
      await sleep(300);
      const calls = harness.sandbox.requests.filter((request) => !request.path.endsWith("/status"));
      const events = Math.max(...all.map((one) => one.payloads.length));
      for (const one of all) one.stop();
      await vi.waitFor(() => expect(harness.gateway.conversationStatusHub.pollerCount).toBe(0), {
        timeout: WAIT_MS,
      });
      return { calls: calls.length, events };
    };
    const alone = await loadsOfFirstEvents(1);
    const five = await loadsOfFirstEvents(5);
    const perEvent = alone.calls / alone.events;
    console.info(
      `heavy selection: ${alone.calls} calls for 1 subscriber (${alone.events} events), ${five.calls} for 5 (${five.events} events)`,
    );
    // One resolution of each event for the five (about 17 calls here), within the budget; one
    // more event may be under way when counted. Five separate resolutions would cost 5 × as much.
    expect(perEvent).toBeGreaterThan(3);
    expect(five.calls).toBeLessThanOrEqual(perEvent * (five.events + 1));
    expect(perEvent).toBeLessThanOrEqual(200);
  });

  it("stops an event's resolution at MAX_UPSTREAM_CALLS: a selection that would make 100+ calls makes 20", async ({
    onTestFinished,
  }) => {
    const startedAt = "2026-01-01T00:00:00.000Z";
    const live = { id: "cnv_live", status: "IN_PROGRESS", agentId: "agt_0", contactId: null };
    // An agent whose 100 conversations each name another agent: far more than the estimate.
    const upstream = await startRecordingUpstream((request, res) => {
      const url = new URL(request.url, "http://upstream");
      if (url.pathname === "/v1/conversations/cnv_live/status") {
        return sendJson(res, 200, { ...live, duration: 1, startedAt, endedAt: null });
      }
      const agent = /^\/v1\/agents\/(agt_\d+)$/.exec(url.pathname)?.[1];
      if (agent) return sendJson(res, 200, { id: agent, name: `Agent ${agent}` });
      const item = (id: string, agentId: string) => ({
        ...live,
        id,
        agentId,
        direction: "INBOUND",
        channel: "PHONE",
        duration: 1,
        startedAt,
        endedAt: null,
        summary: null,
        createdAt: startedAt,
      });
      const items = url.searchParams.has("agentId")
        ? Array.from({ length: 100 }, (_, i) => item(`cnv_${i}`, `agt_${i}`))
        : [item("cnv_live", "agt_0")];
      return sendJson(res, 200, { items, total: items.length, limit: 100, offset: 0 });
    });
    onTestFinished(() => upstream.close());
    const harness = await startHarness({
      upstream: { baseUrl: upstream.url },
      gateway: { pollIntervalMs: 100, maxUpstreamCalls: 20 },
    });
    onTestFinished(() => harness.close());
    const client = wsClient(harness);
    onTestFinished(() => client.dispose());
    const heavy = /* GraphQL */ `
      subscription Heavy($id: ID!) {
        conversationStatus(id: $id) {
          duration
          conversation { agent { conversations(first: 100) { nodes { agent { name } } } } }
        }
      }
    `;
    const subscriber = follow(client, "cnv_live", heavy);
    await firstPayloads([subscriber]);
    await sleep(300);
    const loads = upstream.requests.filter((request) => !request.url.endsWith("/status"));
    const first = subscriber.payloads[0];
    const codes = new Set((first?.errors ?? []).map((error) => error.extensions?.code));
    console.info(`heavy event, budget 20: ${loads.length} calls, codes ${[...codes]}`);
    // One status poll aside, the event's loads stop at the budget; the fields left say why.
    expect(loads.length).toBeLessThanOrEqual(20);
    expect(loads.length).toBeGreaterThan(10);
    expect(codes).toEqual(new Set(["COST_LIMIT_EXCEEDED"]));
  });
});
