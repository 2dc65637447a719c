import type { Client } from "graphql-ws";
import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import type { Harness } from "../gateway/harness.ts";
import { type Following, followWs } from "../gateway/live-support.ts";
import { wsClient } from "../gateway/subscriptions-support.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { ACME, startFleet, waitUntil } from "./fleet-harness.ts";

// Every change reaches every subscriber on every instance: changes made through a mutation on
// another instance and directly on the upstream, across a quiet spell longer than the keep time,
// a Redis that restarts empty and an owner that dies. None twice, none older.

const closing = closedAfterEachTest();
const INTERVAL_MS = 100;
// Fifty subscribers spread over the three instances: a lost or doubled delivery anywhere shows.
const SUBSCRIBERS = 50;
const AGENT = SEED_IDS.acmeAgent;
const DESK = /* GraphQL */ `query Desk($id: ID!) @live { agent(id: $id) { id name } }`;
const asHarness = (url: string) => ({ url }) as Harness;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const nameOf = (result: Following["results"][number] | undefined) =>
  (result?.data?.agent as { name?: unknown } | undefined)?.name;

describe("live deliveries across a fleet", () => {
  it("reach every subscriber once and in order, through quiet spells, a Redis restart and an owner's death", async () => {
    const fleet = closing(await startFleet(3, { gateway: { pollIntervalMs: INTERVAL_MS } }));
    const clients: Client[] = [];
    const lives: { live: Following; instance: number }[] = [];
    try {
      for (let i = 0; i < SUBSCRIBERS; i++) {
        const instance = i % 3;
        const url = fleet.instances[instance]?.url as string;
        const client = wsClient(asHarness(url), ACME);
        clients.push(client);
        lives.push({ live: followWs(client, DESK, { id: AGENT }), instance });
      }
      await Promise.all(lives.map(({ live }) => live.count(1)));
      const expected: string[] = [];
      const alive = new Set([0, 1, 2]);
      const arrived = async (name: string, withinMs: number) =>
        waitUntil(
          () =>
            lives
              .filter(({ instance }) => alive.has(instance))
              .every(({ live }) => nameOf(live.results.at(-1)) === name),
          withinMs,
          `every subscriber to see ${name}`,
        );
      const started = (at: number) => performance.now() - at;
      // A write on one instance reaches the subscribers of the others within a few hundred ms.
      for (const instance of [0, 1, 2]) {
        const name = `Written on ${instance}`;
        const at = performance.now();
        const written = await fleet.instances[instance]?.graphql(
          `mutation { updateAgent(id: "${AGENT}", input: { name: "${name}" }) { agent { id } } }`,
        );
        expect(written?.body.errors).toBeUndefined();
        expected.push(name);
        await arrived(name, 5_000);
        expect(started(at)).toBeLessThan(INTERVAL_MS * 8);
      }
      // A change made directly on the upstream after a quiet spell past the keep time (10 intervals).
      await sleep(INTERVAL_MS * 14);
      const direct = async (name: string) => {
        const response = await fetch(`${fleet.sandbox.url}/v1/agents/${AGENT}`, {
          method: "PATCH",
          headers: { authorization: ACME, "content-type": "application/json" },
          body: JSON.stringify({ name }),
        });
        expect(response.status).toBe(200);
        expected.push(name);
      };
      await direct("After a quiet spell");
      await arrived("After a quiet spell", 5_000);
      // Redis restarts empty: the next change still reaches everyone.
      await fleet.redis.kill();
      await fleet.redis.restart();
      await waitUntil(
        () => fleet.instances.every((instance) => instance.redis.available()),
        10_000,
        "the fleet back on Redis",
      );
      await direct("After a restart");
      await arrived("After a restart", 5_000);
      // The owner dies: another instance reads, and its subscribers see the next change.
      const owner = fleet.instances.findIndex(
        (instance) => instance.gateway.liveHub.ownedPollerCount > 0,
      );
      expect(owner).toBeGreaterThanOrEqual(0);
      for (const { live, instance } of lives) if (instance === owner) live.stop();
      alive.delete(owner);
      await fleet.instances[owner]?.close();
      await direct("After the owner died");
      await arrived("After the owner died", 10_000);
      for (const { live, instance } of lives) {
        if (!alive.has(instance)) continue;
        const names = live.results.map(nameOf);
        // The first result is the name before the run; each change after it, once, in order.
        expect(names.slice(1)).toEqual(expected);
      }
    } finally {
      await Promise.all(clients.map((client) => client.dispose()));
    }
  });

  it("counts every upstream read of the fleet once: the sum of the metrics is the upstream's log", async () => {
    const fleet = closing(await startFleet(3, { gateway: { pollIntervalMs: INTERVAL_MS } }));
    const clients: Client[] = [];
    try {
      const route = 'voicegraph_upstream_requests_total{route="GET /v1/agents/{id}"';
      const counted = async () =>
        (await Promise.all(fleet.instances.map((instance) => instance.metrics())))
          .flatMap((text) => text.split("\n").filter((line) => line.startsWith(route)))
          .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
      const before = await counted();
      fleet.sandbox.clearRequests();
      const lives = fleet.instances.map((instance) => {
        const client = wsClient(asHarness(instance.url), ACME);
        clients.push(client);
        return followWs(client, DESK, { id: AGENT });
      });
      await Promise.all(lives.map((live) => live.count(1)));
      const agentReads = () =>
        fleet.sandbox.requests.filter(
          (request) => request.method === "GET" && request.path === `/v1/agents/${AGENT}`,
        );
      // Stopped right after a poll was answered: none is in flight, none is abandoned.
      const target = agentReads().filter((request) => request.status > 0).length + 8;
      while (agentReads().filter((request) => request.status > 0).length < target) await sleep(2);
      for (const live of lives) live.stop();
      await sleep(INTERVAL_MS / 2);
      const reads = agentReads().length;
      expect(reads).toBeGreaterThan(5);
      expect((await counted()) - before).toBe(reads);
    } finally {
      await Promise.all(clients.map((client) => client.dispose()));
    }
  });
});
