import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { createKeyHasher } from "../../src/upstream/key-memory.ts";
import { byHash, codeOf, post, withQuery } from "../gateway/apq-requests.ts";
import { startHeldUpstream } from "../gateway/held-upstream.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { startFleetStore } from "../support/fleet-store.ts";
import { startTcpProxy } from "../support/tcp-proxy.ts";
import {
  ACME,
  CURSOR_SECRET,
  type Instance,
  PREFIX,
  sha256,
  startFleet,
  startInstance,
  waitUntil,
} from "./fleet-harness.ts";

// The read cache shared through Redis never answers older than an answered write, whichever key
// wrote and whichever instance reads; a refusal drops the key's entries for the whole fleet; and
// a refused request leaves nothing in Redis.

const closing = closedAfterEachTest();
const READONLY = `Bearer ${DEMO_KEYS.acmeReadonly}`;
const AGENT = "agt_acme_reception";
const READ_AGENT = `{ agent(id: "${AGENT}") { id name } }`;
type Cost = { upstreamCalls: number; cacheHits?: number };
const costOf = (answer: { body: { extensions?: Record<string, unknown> } }) =>
  answer.body.extensions?.cost as Cost;

describe("the fleet's read cache", () => {
  it("a write through one key invalidates the resource for every key, on every instance", async () => {
    const fleet = closing(await startFleet(2, { gateway: { sharing: { cacheTtlS: 60 } } }));
    const [a, b] = fleet.instances as [Instance, Instance];
    await b.graphql(READ_AGENT, { authorization: READONLY });
    expect(costOf(await b.graphql(READ_AGENT, { authorization: READONLY }))).toMatchObject({
      cacheHits: 1,
    });
    await a.graphql(
      `mutation { updateAgent(id: "${AGENT}", input: { name: "Renamed on A" }) { agent { id } } }`,
    );
    const after = await b.graphql(READ_AGENT, { authorization: READONLY });
    expect(after.body.data).toEqual({ agent: { id: AGENT, name: "Renamed on A" } });
    expect(costOf(after).cacheHits ?? 0).toBe(0);
  });

  it("a 401 on one instance drops the key's entries on every instance", async () => {
    const redis = closing(await startFleetStore());
    const upstream = closing(
      await startHeldUpstream({ keys: { k_one: "org_a" }, agents: { org_a: ["agt_a1"] } }),
    );
    const options = { sharing: { cacheTtlS: 60 } };
    const a = closing(await startInstance(redis, upstream.url, options));
    const b = closing(await startInstance(redis, upstream.url, options));
    const key = { authorization: "Bearer k_one" };
    const both = '{ organization { id name } agent(id: "agt_a1") { id name } }';
    await a.graphql(both, key);
    expect(costOf(await b.graphql(both, key))).toMatchObject({ cacheHits: 2 });
    upstream.revoke("k_one");
    const refused = await a.graphql('{ agent(id: "agt_other") { id } }', key);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    for (const instance of [a, b]) {
      const answer = await instance.graphql(both, key);
      expect(costOf(answer).cacheHits ?? 0).toBe(0);
      expect(JSON.stringify(answer.body.data)).not.toContain("agt_a1 v0");
    }
  });

  it("a refused write (401) leaves no entry in Redis", async () => {
    const fleet = closing(await startFleet(1, { gateway: { sharing: { cacheTtlS: 60 } } }));
    const [a] = fleet.instances as [Instance];
    await a.graphql(READ_AGENT);
    // The read's flight's lease and counter go a moment after its answer (its landing is not
    // awaited): they are not the writes' doing, so the count starts once they are gone.
    let before: string[] = [];
    await waitUntil(
      async () => {
        before = await fleet.redis.keys();
        return !before.some((name) => /\{poll:flight:.*:(lease|counter)$/.test(name));
      },
      2_000,
      "the read's flight keys gone",
    );
    for (let i = 0; i < 40; i++) {
      const answer = await a.graphql(
        `mutation { updateAgent(id: "${AGENT}", input: { name: "x" }) { agent { id } } }`,
        { authorization: `Bearer sk_test_${randomBytes(8).toString("hex")}` },
      );
      expect(answer.body.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    }
    expect(await fleet.redis.keys()).toEqual(before);
    expect(before.every((name) => name.startsWith(PREFIX))).toBe(true);
    // An accepted write still invalidates: the next read is the written state.
    await a.graphql(
      `mutation { updateAgent(id: "${AGENT}", input: { name: "Accepted" }) { agent { id } } }`,
      { authorization: ACME },
    );
    expect((await a.graphql(READ_AGENT)).body.data).toEqual({
      agent: { id: AGENT, name: "Accepted" },
    });
  });
});

describe("an APQ registration answered by the shared cache", () => {
  it("is kept for the fleet: the hash alone then runs on both instances", async () => {
    const fleet = closing(await startFleet(2, { gateway: { sharing: { cacheTtlS: 60 } } }));
    const [a, b] = fleet.instances as [Instance, Instance];
    const query = "query Org { organization { id name } }";
    // B's call fills the shared cache; A has never called the upstream with this key.
    expect(costOf(await b.graphql(query)).upstreamCalls).toBe(1);
    const registered = await post(a.url, withQuery(query), ACME);
    expect(registered.body.data).toEqual({ organization: { id: "org_acme", name: "Acme Health" } });
    expect(costOf(registered)).toMatchObject({ upstreamCalls: 0, cacheHits: 1 });
    for (const instance of [a, b]) {
      const again = await post(instance.url, byHash(query), ACME);
      expect(codeOf(again)).toBeUndefined();
      expect(again.body.data).toEqual(registered.body.data);
    }
  });
});

describe("names in Redis", () => {
  it("derive from a key only through an HMAC with the fleet's secret", async () => {
    const fleet = closing(await startFleet(2, { gateway: { sharing: { cacheTtlS: 60 } } }));
    const [a, b] = fleet.instances as [Instance, Instance];
    const query = "{ organization { id name } }";
    await a.graphql(query, {
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } },
    });
    expect(costOf(await b.graphql(query))).toMatchObject({ cacheHits: 1 });
    const names = (await fleet.redis.keys()).join("\n");
    // Every instance names the key alike (the secret is the fleet's, CURSOR_SECRET)...
    expect(names).toContain(createKeyHasher(CURSOR_SECRET)(ACME));
    // ...and no plain digest of it, which anyone could compute from a guessed key.
    const plain = createHash("sha256").update(ACME);
    const digest = plain.digest();
    for (const form of ["hex", "base64", "base64url"] as const) {
      expect(names).not.toContain(digest.toString(form));
    }
  });
});

// A TCP proxy cuts one server's link (a cluster client finds every master on its own): one
// server, whichever store the pass runs on.
describe("an instance cut off from Redis", () => {
  const nameOn = async (instance: Instance) =>
    ((await instance.graphql(READ_AGENT)).body.data as { agent: { name: string } }).agent.name;

  async function cutFleet(cacheTtlS: number) {
    const redis = closing(await startFleetStore("server"));
    const fleet = closing(await startFleet(1, { redis, gateway: { sharing: { cacheTtlS } } }));
    const [other] = fleet.instances as [Instance];
    const proxy = closing(await startTcpProxy((fleet.redis.servers[0] as { port: number }).port));
    const writer = closing(
      await startInstance(proxy.url("redis"), fleet.sandbox.url, { sharing: { cacheTtlS } }),
    );
    const original = await nameOn(writer);
    expect(costOf(await other.graphql(READ_AGENT))).toMatchObject({ cacheHits: 1 });
    proxy.cut();
    await waitUntil(() => !writer.redis.available(), 5_000, "the writer cut off");
    const renamed = await writer.graphql(
      `mutation { updateAgent(id: "${AGENT}", input: { name: "Renamed while cut off" }) { agent { name } } }`,
    );
    expect(renamed.body.data).toEqual({
      updateAgent: { agent: { name: "Renamed while cut off" } },
    });
    // The writer reads its write: it uses no shared cache while its invalidation is pending.
    expect(await nameOn(writer)).toBe("Renamed while cut off");
    return { proxy, writer, other, original };
  }

  it("keeps its write's invalidation and applies it before it uses the shared cache again", async () => {
    const { proxy, writer, other, original } = await cutFleet(60);
    // The documented staleness: another instance serves the entry it had until the link returns.
    expect(await nameOn(other)).toBe(original);
    proxy.restore();
    await waitUntil(() => writer.redis.available(), 10_000, "the writer back");
    expect(await nameOn(writer)).toBe("Renamed while cut off");
    expect(await nameOn(other)).toBe("Renamed while cut off");
    expect(await nameOn(writer)).toBe("Renamed while cut off");
  });

  it("another instance serves the old entry no longer than UPSTREAM_CACHE_TTL_S, link or not", async () => {
    const { other } = await cutFleet(1);
    const wroteAt = Date.now();
    let fresh = false;
    while (!fresh && Date.now() - wroteAt < 4_000) {
      fresh = (await nameOn(other)) === "Renamed while cut off";
    }
    expect(fresh).toBe(true);
    // The TTL (1 s) from the write, and the time of the read that saw it (a loaded machine).
    expect(Date.now() - wroteAt).toBeLessThanOrEqual(1_000 + 1_000);
  });
});
