import { createHash, randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { keyHash } from "../../src/upstream/key-memory.ts";
import { startHeldUpstream } from "../gateway/held-upstream.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { startRedisServer } from "../support/redis-server.ts";
import { ACME, type Instance, PREFIX, sha256, startFleet, startInstance } from "./fleet-harness.ts";

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

async function redisKeys(url: string): Promise<string[]> {
  const probe = new Redis(url);
  try {
    return (await probe.keys("*")).sort();
  } finally {
    probe.disconnect();
  }
}

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
    const redis = closing(await startRedisServer());
    const upstream = closing(
      await startHeldUpstream({ keys: { k_one: "org_a" }, agents: { org_a: ["agt_a1"] } }),
    );
    const options = { sharing: { cacheTtlS: 60 } };
    const a = closing(await startInstance(redis.url, upstream.url, options));
    const b = closing(await startInstance(redis.url, upstream.url, options));
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
    const before = await redisKeys(fleet.redis.url);
    for (let i = 0; i < 40; i++) {
      const answer = await a.graphql(
        `mutation { updateAgent(id: "${AGENT}", input: { name: "x" }) { agent { id } } }`,
        { authorization: `Bearer sk_test_${randomBytes(8).toString("hex")}` },
      );
      expect(answer.body.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    }
    expect(await redisKeys(fleet.redis.url)).toEqual(before);
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

describe("names in Redis", () => {
  it("derive from a key only through an HMAC with the fleet's secret", async () => {
    const fleet = closing(await startFleet(2, { gateway: { sharing: { cacheTtlS: 60 } } }));
    const [a, b] = fleet.instances as [Instance, Instance];
    const query = "{ organization { id name } }";
    await a.graphql(query, {
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } },
    });
    expect(costOf(await b.graphql(query))).toMatchObject({ cacheHits: 1 });
    const names = (await redisKeys(fleet.redis.url)).join("\n");
    // Every instance names the key alike (the secret is the fleet's, CURSOR_SECRET)...
    expect(names).toContain(keyHash(ACME));
    // ...and no plain digest of it, which anyone could compute from a guessed key.
    const plain = createHash("sha256").update(ACME);
    const digest = plain.digest();
    for (const form of ["hex", "base64", "base64url"] as const) {
      expect(names).not.toContain(digest.toString(form));
    }
  });
});
