import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import type { Harness } from "../gateway/harness.ts";
import { payloads, subscribeSse, updates } from "../gateway/subscriptions-support.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { startFleetStore } from "../support/fleet-store.ts";
import type { RedisServer } from "../support/redis-server.ts";
import { type Instance, metric, PREFIX, sha256, startFleet, waitUntil } from "./fleet-harness.ts";

// The cluster changes under a running fleet. A master dies and its replica takes its slots
// over: every instance keeps answering meanwhile (from its own state while a slot has no
// master), then shares again, and what the fleet kept before (replicated) is still there. A
// slot moves to another master: the fleet follows it, and its followers miss nothing.

const closing = closedAfterEachTest();
const asHarness = (url: string) => ({ url }) as Harness;
const queries = Array.from({ length: 12 }, (_, i) => `query F${i} { organization { id } }`);

describe("a fleet on a cluster whose master fails over", () => {
  it("keeps answering and following, then shares again on the promoted replica", async () => {
    const store = closing(await startFleetStore("cluster", { replicas: true }));
    const fleet = closing(
      await startFleet(2, {
        redis: store,
        sandbox: { callDurationMs: 120_000 },
        gateway: { pollIntervalMs: 200 },
      }),
    );
    const [a, b] = fleet.instances as [Instance, Instance];
    for (const query of queries) {
      await a.graphql(query, { extensions: { persistedQuery: hashOf(query) } });
    }
    const subscriptions = await Promise.all(
      [a, b].map((instance) =>
        subscribeSse(asHarness(instance.url), SEED_IDS.acmeLiveConversation),
      ),
    );
    try {
      for (const subscription of subscriptions) await subscription.nexts(2);
      store.redirectionsExpected();
      await (store.servers[0] as RedisServer).kill();
      await waitUntil(() => !a.redis.available(), 5_000, "the master's loss seen");
      // Served meanwhile, from the instance's own state.
      for (const instance of [a, b]) {
        const answer = await instance.graphql(queries[0] as string);
        expect(answer.body.data).toMatchObject({ organization: { id: "org_acme" } });
      }
      await waitUntil(
        () => a.redis.available() && b.redis.available(),
        30_000,
        "shared again on the promoted replica",
      );
      // Every registration made before the loss is found by the other instance.
      for (const query of queries) {
        const found = await b.graphql("", { extensions: { persistedQuery: hashOf(query) } });
        expect(found.body.data, query).toMatchObject({ organization: { id: "org_acme" } });
      }
      // Followers kept receiving, in order, never twice.
      const before = subscriptions.map((s) => payloads(s.messages).length);
      await waitUntil(
        () => subscriptions.every((s, i) => payloads(s.messages).length > (before[i] as number)),
        10_000,
        "an update after the fail-over",
      );
      for (const subscription of subscriptions) inOrder(subscription.messages);
    } finally {
      for (const subscription of subscriptions) subscription.disconnect();
    }
  });
});

describe("a fleet on a cluster whose slot moves to another master", () => {
  it("keeps following a watched call while its slot moves, with one poller after", async () => {
    const fleet = closing(
      await startFleet(2, {
        sandbox: { callDurationMs: 120_000 },
        gateway: { pollIntervalMs: 200 },
      }),
    );
    const [a, b] = fleet.instances as [Instance, Instance];
    const subscriptions = await Promise.all(
      [a, b].map((instance) =>
        subscribeSse(asHarness(instance.url), SEED_IDS.acmeLiveConversation),
      ),
    );
    try {
      for (const subscription of subscriptions) await subscription.nexts(2);
      const [lease] = await fleet.redis.keys(`${PREFIX}*:lease`);
      expect(lease).toBeDefined();
      const before = await keysByServer(fleet.redis.onEachServer);
      await fleet.redis.moveSlotOf(lease as string, 200);
      // The call's lease and counter (its epoch, sequence and newest update) moved together.
      const after = await keysByServer(fleet.redis.onEachServer);
      const holder = (map: string[][]) => map.findIndex((keys) => keys.includes(lease as string));
      expect(holder(after)).not.toBe(holder(before));
      const name = lease as string;
      const tag = name.slice(name.indexOf("{"), name.indexOf("}") + 1);
      expect(after[holder(after)]?.filter((key) => key.includes(tag)).length).toBeGreaterThan(1);
      const seen = subscriptions.map((s) => payloads(s.messages).length);
      await waitUntil(
        () => subscriptions.every((s, i) => payloads(s.messages).length > (seen[i] as number) + 2),
        10_000,
        "updates after the move",
      );
      for (const subscription of subscriptions) inOrder(subscription.messages);
      await waitUntil(() => a.redis.available() && b.redis.available(), 10_000, "shared");
      const owned = await Promise.all(
        [a, b].map(async (instance) =>
          metric(await instance.metrics(), 'voicegraph_fleet_pollers{role="owned"}'),
        ),
      );
      expect(owned.sort()).toEqual([0, 1]);
    } finally {
      for (const subscription of subscriptions) subscription.disconnect();
    }
  });
});

/** Every key of the fleet on each server. */
async function keysByServer(onEachServer: (...command: string[]) => Promise<unknown[]>) {
  return (await onEachServer("keys", `${PREFIX}*`)).map((keys) => keys as string[]);
}

/** The durations a subscriber saw: in order, never twice. */
function inOrder(messages: Parameters<typeof payloads>[0]) {
  const seen = updates(payloads(messages)).map((update) => update.duration ?? -1);
  for (let i = 1; i < seen.length; i++) {
    expect(seen[i], JSON.stringify(seen)).toBeGreaterThan(seen[i - 1] as number);
  }
}

function hashOf(query: string) {
  return { version: 1, sha256Hash: sha256(query) };
}
