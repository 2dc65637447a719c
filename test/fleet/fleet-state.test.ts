import { describe, expect, it, vi } from "vitest";
import { createSessionVerifier } from "../../src/gateway/session/verify-session.ts";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { createKeyHasher } from "../../src/upstream/key-memory.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { FLEET_STORE } from "../support/fleet-store.ts";
import { leaksOf } from "../support/key-echoes.ts";
import { SESSION_SECRET, sessionToken } from "../support/session-token.ts";
import {
  ACME,
  CURSOR_SECRET,
  GLOBEX,
  type Instance,
  PREFIX,
  sha256,
  startFleet,
  startInstance,
  waitUntil,
} from "./fleet-harness.ts";

// Three instances behave as one gateway over one store: a Redis server or a Redis Cluster.

const closing = closedAfterEachTest();
const ORGANIZATION = "query Org { organization { id name } }";

describe(`a fleet on one store (${FLEET_STORE})`, () => {
  it("knows an automatic persisted query registered on one instance on every other, per key", async () => {
    const fleet = closing(await startFleet(3));
    const [a, b, c] = fleet.instances as [Instance, Instance, Instance];
    const persistedQuery = { version: 1, sha256Hash: sha256(ORGANIZATION) };
    // Unknown everywhere first.
    expect(
      (await b.graphql("", { extensions: { persistedQuery } })).body.errors?.[0]?.extensions?.code,
    ).toBe("PERSISTED_QUERY_NOT_FOUND");
    // Registered on A (the key is accepted there by the operation itself).
    const registered = await a.graphql(ORGANIZATION, { extensions: { persistedQuery } });
    expect(registered.body.data).toMatchObject({ organization: { id: "org_acme" } });
    for (const other of [b, c]) {
      const byHash = await other.graphql("", { extensions: { persistedQuery } });
      expect(byHash.body.data).toMatchObject({ organization: { id: "org_acme" } });
    }
    // Another key learns nothing from Acme's registration.
    const probe = await b.graphql("", { authorization: GLOBEX, extensions: { persistedQuery } });
    expect(probe.body.errors?.[0]?.extensions?.code).toBe("PERSISTED_QUERY_NOT_FOUND");
  });

  it("keeps two gateways of one process with their own secrets apart, each naming keys by its own", async () => {
    const fleet = closing(await startFleet(1));
    const [a] = fleet.instances as [Instance];
    // Created after A in the same process: it must not rename A's keys.
    const otherSecret = "another-fleet's-cursor-secret-of-32-characters";
    const b = closing(
      await startInstance(fleet.redis, fleet.sandbox.url, { cursorSecret: otherSecret }),
    );
    const persistedQuery = { version: 1, sha256Hash: sha256(ORGANIZATION) };
    const registered = await a.graphql(ORGANIZATION, { extensions: { persistedQuery } });
    expect(registered.body.data).toMatchObject({ organization: { id: "org_acme" } });
    expect(a.gateway.keyHash(ACME)).toBe(createKeyHasher(CURSOR_SECRET)(ACME));
    expect(b.gateway.keyHash(ACME)).toBe(createKeyHasher(otherSecret)(ACME));

    const probe = fleet.redis.client();
    try {
      // The registration is kept once A's operation has run: named by A's hash of the key.
      const name = `${PREFIX}apq:{${a.gateway.keyHash(ACME)}:${persistedQuery.sha256Hash}}`;
      await vi.waitFor(async () => expect(await probe.exists(name)).toBe(1), {
        timeout: 5_000,
        interval: 20,
      });
      expect((await fleet.redis.keys()).join("\n")).not.toContain(b.gateway.keyHash(ACME));
    } finally {
      probe.disconnect();
    }
    // B names Acme's key otherwise: A's registration is not B's to find.
    const byHash = await b.graphql("", { extensions: { persistedQuery } });
    expect(byHash.body.errors?.[0]?.extensions?.code).toBe("PERSISTED_QUERY_NOT_FOUND");
  });

  it("stops every instance's calls for a key after one instance's upstream 429, and only that key's", async () => {
    const fleet = closing(
      await startFleet(3, { sandbox: { rateLimit: 3, rateWindowSeconds: 60 } }),
    );
    const [a, b, c] = fleet.instances as [Instance, Instance, Instance];
    for (let i = 0; i < 3; i++) expect((await a.graphql(ORGANIZATION)).body.data).toBeTruthy();
    const limited = await a.graphql(ORGANIZATION);
    expect(limited.body.errors?.[0]?.extensions?.code).toBe("RATE_LIMITED");
    fleet.takeUpstreamRequests();
    // The block reaches the other instances through Redis: no call of theirs goes upstream.
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const other of [b, c]) {
      const answer = await other.graphql(ORGANIZATION);
      expect(answer.body.errors?.[0]?.extensions?.code).toBe("RATE_LIMITED");
      expect(answer.body.errors?.[0]?.extensions?.retryAfter).toBeGreaterThan(0);
    }
    expect(fleet.takeUpstreamRequests()).toEqual([]);
    // Globex has its own budget: served.
    expect((await b.graphql(ORGANIZATION, { authorization: GLOBEX })).body.data).toMatchObject({
      organization: { id: "org_globex" },
    });
  });

  it("an instance that joins after the 429 learns the block from Redis", async () => {
    const fleet = closing(
      await startFleet(1, { sandbox: { rateLimit: 1, rateWindowSeconds: 60 } }),
    );
    const [a] = fleet.instances as [Instance];
    await a.graphql(ORGANIZATION);
    expect((await a.graphql(ORGANIZATION)).body.errors?.[0]?.extensions?.code).toBe("RATE_LIMITED");
    const late = closing(await startInstance(fleet.redis, fleet.sandbox.url));
    await new Promise((resolve) => setTimeout(resolve, 200));
    fleet.takeUpstreamRequests();
    expect((await late.graphql(ORGANIZATION)).body.errors?.[0]?.extensions?.code).toBe(
      "RATE_LIMITED",
    );
    expect(fleet.takeUpstreamRequests()).toEqual([]);
  });

  it("holds a session's rate limit for the fleet, not per instance", async () => {
    const fleet = closing(
      await startFleet(2, {
        gateway: {
          session: {
            verify: createSessionVerifier({ secret: SESSION_SECRET }),
            keys: new Map([["org_acme", DEMO_KEYS.acme]]),
            perSessionPerMinute: 6,
          },
        },
      }),
    );
    const token = await sessionToken({ subject: "one-tab" });
    const codes: unknown[] = [];
    for (let i = 0; i < 12; i++) {
      const instance = fleet.instances[i % 2] as Instance;
      const answer = await instance.graphql(ORGANIZATION, { authorization: `Bearer ${token}` });
      codes.push(answer.body.errors?.[0]?.extensions?.code ?? "OK");
    }
    expect(codes).toEqual([...Array(6).fill("OK"), ...Array(6).fill("RATE_LIMITED")]);
  });

  it("keeps no API key in Redis, every entry under the prefix and with a TTL", async () => {
    const fleet = closing(
      await startFleet(2, { sandbox: { rateLimit: 2, rateWindowSeconds: 60 } }),
    );
    const [a, b] = fleet.instances as [Instance, Instance];
    for (const authorization of [ACME, GLOBEX]) {
      const persistedQuery = { version: 1, sha256Hash: sha256(ORGANIZATION) };
      await a.graphql(ORGANIZATION, { authorization, extensions: { persistedQuery } });
      for (let i = 0; i < 3; i++) await b.graphql(ORGANIZATION, { authorization });
    }
    const probe = fleet.redis.client();
    try {
      const keys = await fleet.redis.keys();
      expect(keys.length).toBeGreaterThan(3);
      for (const key of keys) {
        expect(key.startsWith(PREFIX)).toBe(true);
        const ttl = await probe.pttl(key);
        // Gone since it was listed (a flight's keys expire a moment after its answer): nothing
        // left to check. A key kept without a TTL answers -1, and fails below.
        if (ttl === -2) continue;
        expect(ttl, key).toBeGreaterThan(0);
        const type = await probe.type(key);
        const value =
          type === "string"
            ? await probe.get(key)
            : type === "hash"
              ? JSON.stringify(await probe.hgetall(key))
              : JSON.stringify(await probe.zrange(key, 0, -1, "WITHSCORES"));
        for (const secret of [DEMO_KEYS.acme, DEMO_KEYS.globex]) {
          expect(leaksOf(secret, `${key} ${value}`), key).toEqual([]);
        }
      }
    } finally {
      probe.disconnect();
    }
  });

  it("keeps answering while Redis is gone, says so, and shares state again when it returns", async () => {
    const fleet = closing(await startFleet(2));
    const [a, b] = fleet.instances as [Instance, Instance];
    await fleet.redis.kill();
    await waitUntil(
      () => !a.redis.available() && !b.redis.available(),
      5_000,
      "Redis seen as gone",
    );
    const started = Date.now();
    const answer = await a.graphql(ORGANIZATION);
    expect(answer.body.data).toMatchObject({ organization: { id: "org_acme" } });
    expect(Date.now() - started).toBeLessThan(2_000);
    const ready = await fetch(`${a.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, redis: "unreachable" });
    expect(await a.metrics()).toMatch(/^voicegraph_redis_available 0$/m);
    // APQ still works, per instance.
    const persistedQuery = { version: 1, sha256Hash: sha256(ORGANIZATION) };
    await a.graphql(ORGANIZATION, { extensions: { persistedQuery } });
    expect((await a.graphql("", { extensions: { persistedQuery } })).body.data).toBeTruthy();

    await fleet.redis.restart();
    await waitUntil(() => a.redis.available() && b.redis.available(), 10_000, "Redis seen again");
    expect(await (await fetch(`${b.url}/readyz`)).json()).toMatchObject({ redis: "shared" });
    expect(await b.metrics()).toMatch(/^voicegraph_redis_available 1$/m);
    const other = `query Other { organization { id timezone } }`;
    const hash = { version: 1, sha256Hash: sha256(other) };
    await a.graphql(other, { extensions: { persistedQuery: hash } });
    expect((await b.graphql("", { extensions: { persistedQuery: hash } })).body.data).toBeTruthy();
  });
});

describe("the read cache of a fleet", () => {
  it("is shared by every instance, and a write through any instance is seen by every other", async () => {
    const fleet = closing(await startFleet(2, { gateway: { sharing: { cacheTtlS: 60 } } }));
    const [a, b] = fleet.instances as [Instance, Instance];
    const read = "{ organization { id name } }";
    expect((await a.graphql(read)).body.data).toMatchObject({
      organization: { name: "Acme Health" },
    });
    fleet.takeUpstreamRequests();
    const onB = await b.graphql(read);
    expect(onB.body.data).toMatchObject({ organization: { name: "Acme Health" } });
    expect(onB.body.extensions).toMatchObject({ cost: { upstreamCalls: 0, cacheHits: 1 } });
    expect(fleet.takeUpstreamRequests()).toEqual([]);
    // Globex never gets Acme's entry.
    expect((await b.graphql(read, { authorization: GLOBEX })).body.data).toMatchObject({
      organization: { id: "org_globex" },
    });
    await b.graphql(
      'mutation { updateOrganization(input: { name: "Acme Moved" }) { organization { id } } }',
    );
    expect((await a.graphql(read)).body.data).toMatchObject({
      organization: { name: "Acme Moved" },
    });
    const probe = fleet.redis.client();
    try {
      const keys = await fleet.redis.keys(`${PREFIX}cache:*`);
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        expect(await probe.pttl(key)).toBeGreaterThan(0);
        expect(leaksOf(DEMO_KEYS.acme, `${key} ${await probe.get(key)}`)).toEqual([]);
      }
    } finally {
      probe.disconnect();
    }
  });
});
