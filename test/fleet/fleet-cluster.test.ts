import { describe, expect, it } from "vitest";
import { createRedisPollerStore } from "../../src/fleet/poller-lease.ts";
import { createFleetRedis } from "../../src/fleet/redis.ts";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import type { Harness } from "../gateway/harness.ts";
import { subscribeSse } from "../gateway/subscriptions-support.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { startFleetStore } from "../support/fleet-store.ts";
import {
  ACME,
  GLOBEX,
  type Instance,
  PREFIX,
  sha256,
  startFleet,
  waitUntil,
} from "./fleet-harness.ts";

// On a three-master Redis Cluster the fleet's state spreads over every master, and no command of
// a whole workload is sent to the wrong master or spans two slots: the servers' own error
// statistics say so, as an operator would look. (Every other fleet test runs on the cluster too,
// and its store checks the same statistics when it closes: test/support/fleet-store.ts.)

const closing = closedAfterEachTest();
const asHarness = (url: string) => ({ url }) as Harness;

describe("a fleet on a three-master Redis Cluster", () => {
  it("spreads its keys over every master, and no command crosses a slot or a master", async () => {
    const fleet = closing(
      await startFleet(2, {
        sandbox: { callDurationMs: 60_000 },
        gateway: { pollIntervalMs: 200, sharing: { cacheTtlS: 60 } },
      }),
    );
    const [a, b] = fleet.instances as [Instance, Instance];
    // Automatic persisted queries, registered on A and found on B.
    for (let i = 0; i < 12; i++) {
      const query = `query Q${i} { organization { id } }`;
      const persistedQuery = { version: 1, sha256Hash: sha256(query) };
      await a.graphql(query, { extensions: { persistedQuery } });
      const found = await b.graphql("", { extensions: { persistedQuery } });
      expect(found.body.data).toMatchObject({ organization: { id: "org_acme" } });
    }
    // The read cache, for two keys and several resources, then a write that invalidates one.
    const reads = [
      "{ organization { id name } }",
      `{ agent(id: "${SEED_IDS.acmeAgent}") { id name } }`,
      '{ agent(id: "agt_acme_scheduler") { id name } }',
    ];
    for (const read of reads) {
      await a.graphql(read);
      const onB = await b.graphql(read);
      expect(onB.body.extensions, `${read} ${JSON.stringify(onB.body)}`).toMatchObject({
        cost: { upstreamCalls: 0 },
      });
      await b.graphql(read, { authorization: GLOBEX });
    }
    await b.graphql(
      'mutation { updateOrganization(input: { name: "Acme Spread" }) { organization { id } } }',
    );
    expect((await a.graphql(reads[0] as string)).body.data).toMatchObject({
      organization: { name: "Acme Spread" },
    });
    // A watched call: one poller's lease and counter, its updates published to both.
    const subscriptions = await Promise.all(
      [a, b].map((instance) =>
        subscribeSse(asHarness(instance.url), SEED_IDS.acmeLiveConversation, ACME),
      ),
    );
    try {
      for (const subscription of subscriptions) await subscription.nexts(2);
    } finally {
      for (const subscription of subscriptions) subscription.disconnect();
    }

    const perMaster = (await fleet.redis.onEachServer("keys", `${PREFIX}*`)).map(
      (keys) => (keys as string[]).length,
    );
    expect(perMaster, `keys per master: ${perMaster}`).toHaveLength(3);
    for (const count of perMaster)
      expect(count, `keys per master: ${perMaster}`).toBeGreaterThan(0);
    for (const stats of await fleet.redis.onEachServer("info", "errorstats")) {
      expect(String(stats)).not.toMatch(/errorstat_(MOVED|ASK|CROSSSLOT|EXECABORT):/);
    }
    for (const instance of [a, b]) {
      expect(await instance.metrics()).not.toMatch(
        /voicegraph_redis_failures_total\{kind="(MOVED|ASK|CROSSSLOT|EXECABORT|ERR)"\}/,
      );
    }
  });

  it("sends a turn's commands in one pipeline per master, scripts of every slot among them", async () => {
    const store = closing(await startFleetStore());
    const redis = createFleetRedis({ ...store.connection, prefix: "vgpipeline:" });
    closing({ close: () => redis.close() });
    await waitUntil(() => redis.available(), 10_000, "the store");
    const pollers = createRedisPollerStore(redis, { intervalMs: 200 });
    closing({ close: async () => pollers.close() });
    const names = Array.from({ length: 12 }, (_, i) => `flight:pipelined-${i}`);
    const leases = names.map((name) => pollers.flight(name, 5_000));
    const gets = names.map((name) => redis.client.get(redis.key(name)));
    const scripts = names.map((name) =>
      redis.client.eval("return redis.call('exists', KEYS[1])", 1, redis.key(name)),
    );
    // The leases and the GETs wait for the turn's pipelines; each EVAL, whose first argument is
    // its script and not its key (its master may be another), goes on its own.
    expect(
      (redis.client as unknown as { autoPipelineQueueSize: number }).autoPipelineQueueSize,
    ).toBe(2 * names.length);
    for (const lease of await Promise.all(leases)) expect(lease).toMatchObject({ role: "owner" });
    expect(await Promise.all(gets)).toEqual(names.map(() => null));
    expect(await Promise.all(scripts)).toEqual(names.map(() => 0));
  });
});
