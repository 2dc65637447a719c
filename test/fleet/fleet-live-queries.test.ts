import type { Client } from "graphql-ws";
import { describe, expect, it, vi } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { startSandbox } from "../../src/sandbox/server.ts";
import type { Harness } from "../gateway/harness.ts";
import { type Following, followWs } from "../gateway/live-support.ts";
import { wsClient } from "../gateway/subscriptions-support.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { startFleetStore } from "../support/fleet-store.ts";
import { scriptPerTest } from "../support/scripts.ts";
import { ACME, CURSOR_SECRET, GLOBEX, metric, startFleet } from "./fleet-harness.ts";

// Live queries across a fleet: one upstream read per distinct resource per interval, whatever
// the number of subscribers and instances.

const closing = closedAfterEachTest();
const INTERVAL_MS = 200;
const AGENT = SEED_IDS.acmeAgent;
const PATHS = [`/v1/agents/${AGENT}`, "/v1/organization"];
const DESK = /* GraphQL */ `
  query Desk($id: ID!) @live { agent(id: $id) { id name } organization { id name } }
`;
const asHarness = (url: string) => ({ url }) as Harness;

function agentName(result: Following["results"][number] | undefined): unknown {
  return (result?.data?.agent as { name?: unknown } | undefined)?.name;
}

describe("live queries across a fleet", () => {
  it("read each resource once per interval for 100 subscribers on three instances", async () => {
    const fleet = closing(await startFleet(3, { gateway: { pollIntervalMs: INTERVAL_MS } }));
    const clients: Client[] = [];
    const lives: Following[] = [];
    try {
      for (let i = 0; i < 100; i++) {
        const instance = fleet.instances[i % 3];
        if (!instance) throw new Error("no instance");
        const client = wsClient(asHarness(instance.url), ACME);
        clients.push(client);
        lives.push(followWs(client, DESK, { id: AGENT }));
      }
      await Promise.all(lives.map((live) => live.count(1, 10_000)));
      const hubs = fleet.instances.map((instance) => instance.gateway.liveHub);
      // One owner per resource for the whole fleet, once the leases have settled.
      await vi.waitFor(
        () => expect(hubs.reduce((owned, hub) => owned + hub.ownedPollerCount, 0)).toBe(2),
        { timeout: 5_000, interval: 20 },
      );
      expect(hubs.map((hub) => hub.pollerCount)).toEqual([2, 2, 2]);

      fleet.sandbox.clearRequests();
      const started = performance.now();
      await vi.waitFor(
        () => {
          const reads = fleet.sandbox.requests.filter((r) => r.path === PATHS[0]);
          expect(reads.length).toBeGreaterThanOrEqual(8);
        },
        { timeout: 10_000, interval: 10 },
      );
      const intervals = (performance.now() - started) / INTERVAL_MS;
      const requests = fleet.sandbox.requests.map((r) => `${r.method} ${r.path}`);
      // Only the two resources the query reads, each about once an interval: not 100, not 3.
      expect(new Set(requests)).toEqual(new Set(PATHS.map((path) => `GET ${path}`)));
      for (const path of PATHS) {
        const count = requests.filter((r) => r === `GET ${path}`).length;
        expect(count).toBeLessThanOrEqual(Math.ceil(intervals) + 1);
      }
      // Nothing changed: nothing was pushed after the first result.
      for (const live of lives) expect(live.results).toHaveLength(1);

      // A change made on the upstream itself reaches every subscriber within two intervals.
      const renamed = await fetch(`${fleet.sandbox.url}/v1/agents/${AGENT}`, {
        method: "PATCH",
        headers: { authorization: ACME, "content-type": "application/json" },
        body: JSON.stringify({ name: "Fleet desk" }),
      });
      expect(renamed.status).toBe(200);
      const changedAt = performance.now();
      await Promise.all(lives.map((live) => live.count(2, 5_000)));
      // Two intervals at most until a poll sees it, and time for 100 sockets to be written to.
      expect(performance.now() - changedAt).toBeLessThan(2 * INTERVAL_MS + 800);
      for (const live of lives) {
        expect(live.results).toHaveLength(2);
        expect(agentName(live.results[1])).toBe("Fleet desk");
      }
    } finally {
      await Promise.all(clients.map((client) => client.dispose()));
    }
  });

  it("never shares a poller, an answer or a push between two keys", async () => {
    const fleet = closing(await startFleet(2, { gateway: { pollIntervalMs: INTERVAL_MS } }));
    const [a, b] = fleet.instances;
    if (!a || !b) throw new Error("two instances");
    const query = /* GraphQL */ `query Org @live { organization { id name } }`;
    const acme = wsClient(asHarness(a.url), ACME);
    const globex = wsClient(asHarness(b.url), GLOBEX);
    const globexOnA = wsClient(asHarness(a.url), GLOBEX);
    try {
      const acmeLive = followWs(acme, query, {});
      const globexLive = followWs(globex, query, {});
      const globexLiveOnA = followWs(globexOnA, query, {});
      await Promise.all([acmeLive.count(1), globexLive.count(1), globexLiveOnA.count(1)]);
      expect(a.gateway.liveHub.pollerCount).toBe(2);
      expect(b.gateway.liveHub.pollerCount).toBe(1);
      const renamed = await fetch(`${fleet.sandbox.url}/v1/organization`, {
        method: "PATCH",
        headers: { authorization: ACME, "content-type": "application/json" },
        body: JSON.stringify({ name: "Acme of the fleet" }),
      });
      expect(renamed.status).toBe(200);
      await acmeLive.count(2, 5_000);
      expect(acmeLive.results[1]?.data).toEqual({
        organization: { id: expect.any(String), name: "Acme of the fleet" },
      });
      // Globex's pollers kept reading Globex's organization, which did not change.
      await vi.waitFor(
        () =>
          expect(
            fleet.sandbox.requests.filter(
              (r) => r.path === "/v1/organization" && r.headers.authorization === GLOBEX,
            ).length,
          ).toBeGreaterThanOrEqual(3),
        { timeout: 5_000, interval: 20 },
      );
      expect(globexLive.results).toHaveLength(1);
      expect(globexLiveOnA.results).toHaveLength(1);
    } finally {
      await Promise.all([acme.dispose(), globex.dispose(), globexOnA.dispose()]);
    }
  });
});

describe("live queries while Redis is away", () => {
  it("poll for each instance's own subscribers, and share one poller again after", async () => {
    const fleet = closing(await startFleet(2, { gateway: { pollIntervalMs: INTERVAL_MS } }));
    const query = /* GraphQL */ `query Desk($id: ID!) @live { agent(id: $id) { id name } }`;
    const clients = fleet.instances.map((instance) => wsClient(asHarness(instance.url), ACME));
    try {
      const lives = clients.map((client) => followWs(client, query, { id: AGENT }));
      await Promise.all(lives.map((live) => live.count(1, 5_000)));
      const hubs = fleet.instances.map((instance) => instance.gateway.liveHub);
      await fleet.redis.kill();
      await vi.waitFor(() => expect(hubs.map((hub) => hub.ownedPollerCount)).toEqual([1, 1]), {
        timeout: 5_000,
        interval: 20,
      });
      const renamed = await fetch(`${fleet.sandbox.url}/v1/agents/${AGENT}`, {
        method: "PATCH",
        headers: { authorization: ACME, "content-type": "application/json" },
        body: JSON.stringify({ name: "Desk without Redis" }),
      });
      expect(renamed.status).toBe(200);
      await Promise.all(lives.map((live) => live.count(2, 5_000)));
      for (const live of lives) expect(agentName(live.results[1])).toBe("Desk without Redis");
      await fleet.redis.restart();
      await vi.waitFor(
        () => expect(hubs.map((hub) => hub.ownedPollerCount).sort()).toEqual([0, 1]),
        { timeout: 10_000, interval: 20 },
      );
    } finally {
      await Promise.all(clients.map((client) => client.dispose()));
    }
  });
});

describe("live queries across a fleet of npm start processes", () => {
  const start = scriptPerTest("src/main.ts", {
    POLL_INTERVAL_MS: String(INTERVAL_MS),
    CURSOR_SECRET,
    LOG_LEVEL: "warn",
    PORT: "0",
  });

  it("survive the poller's owner being killed: another instance reads and pushes", async () => {
    const redis = closing(await startFleetStore());
    const sandbox = closing(await startSandbox({ port: 0, callIntervalMs: 600_000 }));
    const env = { UPSTREAM_URL: sandbox.url, ...redis.env };
    const processes = [start(env), start(env), start(env)];
    const urls: string[] = [];
    for (const process of processes) {
      const banner = await process.stdoutWith(/GraphQL at (http:\S+)\/graphql/);
      urls.push((/GraphQL at (http:\S+)\/graphql/.exec(banner) as RegExpExecArray)[1] as string);
    }
    const query = /* GraphQL */ `query Desk($id: ID!) @live { agent(id: $id) { id name } }`;
    const clients = urls.flatMap((url) => [0, 1].map(() => wsClient(asHarness(url), ACME)));
    try {
      const lives = clients.map((client) => followWs(client, query, { id: AGENT }));
      await Promise.all(lives.map((live) => live.count(1, 10_000)));
      const owned = () =>
        Promise.all(
          urls.map(async (url) =>
            metric(
              await (await fetch(`${url}/metrics`)).text(),
              'voicegraph_live_pollers{role="owned"}',
            ),
          ),
        );
      await vi.waitFor(async () => expect((await owned()).sort()).toEqual([0, 0, 1]), {
        timeout: 5_000,
        interval: 50,
      });
      const owner = (await owned()).indexOf(1);
      (processes[owner] as { child: { kill(signal: string): void } }).child.kill("SIGKILL");
      const survivors = lives.filter((_, i) => Math.floor(i / 2) !== owner);
      const renamed = await fetch(`${sandbox.url}/v1/agents/${AGENT}`, {
        method: "PATCH",
        headers: { authorization: ACME, "content-type": "application/json" },
        body: JSON.stringify({ name: "Desk after fail-over" }),
      });
      expect(renamed.status).toBe(200);
      const killedAt = performance.now();
      await Promise.all(survivors.map((live) => live.count(2, 6 * INTERVAL_MS + 2_000)));
      // The lease is two intervals (+250 ms) long, a follower tries each interval, a read follows.
      expect(performance.now() - killedAt).toBeLessThan(4 * INTERVAL_MS + 1_000);
      for (const live of survivors) expect(agentName(live.results[1])).toBe("Desk after fail-over");
    } finally {
      await Promise.all(clients.map((client) => client.dispose()));
    }
  });
});
