import type { YogaLogger } from "graphql-yoga";
import { describe, expect, it } from "vitest";
import { DEGRADED_MS } from "../../src/fleet/redis-failures.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { FLEET_STORE } from "../support/fleet-store.ts";
import {
  ACME,
  type Instance,
  metric,
  PREFIX,
  sha256,
  startFleet,
  waitUntil,
} from "./fleet-harness.ts";

// A store that starts refusing commands mid-run is never taken for an empty one: every
// instance says so in /readyz, its metrics and its log within a second, keeps answering from
// its own state, and shares again once the store accepts commands.

const closing = closedAfterEachTest();
const ORGANIZATION = "query Org { organization { id name } }";

/** A logger that keeps the warning lines, as an operator's log collector would. */
function warningsLogger(): { logger: YogaLogger; warnings: string[] } {
  const warnings: string[] = [];
  const ignore = () => undefined;
  return {
    warnings,
    logger: {
      debug: ignore,
      info: ignore,
      error: ignore,
      warn: (...args: unknown[]) => void warnings.push(String(args[0])),
    },
  };
}

const readiness = async (instance: Instance) =>
  (await (await fetch(`${instance.url}/readyz`)).json()) as Record<string, unknown>;

describe(`a store that refuses commands (${FLEET_STORE})`, () => {
  it("is shown in /readyz, the metrics and the log within a second, and the gateway keeps answering", async () => {
    const { logger, warnings } = warningsLogger();
    const fleet = closing(await startFleet(1, { gateway: { logging: logger } }));
    const [a] = fleet.instances as [Instance];
    expect(await readiness(a)).toMatchObject({ ready: true, redis: "shared" });

    // Every master out of memory, evicting nothing: each write is refused with OOM.
    await fleet.redis.onEachServer("config", "set", "maxmemory", "1");
    try {
      const started = Date.now();
      const persistedQuery = { version: 1, sha256Hash: sha256(ORGANIZATION) };
      // A registration is written to Redis: refused, counted, and still answered from this
      // instance's own store.
      const registered = await a.graphql(ORGANIZATION, { extensions: { persistedQuery } });
      expect(registered.body.data).toMatchObject({ organization: { id: "org_acme" } });
      await waitUntil(() => !a.redis.available(), 1_000, "the refusal seen");
      const ready = await readiness(a);
      expect(ready).toMatchObject({ ready: true, redis: "degraded" });
      expect(String(ready.redisReason)).toMatch(/^OOM: OOM command not allowed/);
      const metrics = await a.metrics();
      expect(metric(metrics, 'voicegraph_redis_failures_total{kind="OOM"}')).toBeGreaterThan(0);
      expect(metrics).toMatch(/^voicegraph_redis_available 0$/m);
      expect(Date.now() - started).toBeLessThan(1_000 + 500);
      // One warning for the kind, naming it; more refusals of that kind add no line.
      expect(warnings.filter((line) => line.includes("(OOM)"))).toHaveLength(1);
      expect(warnings[0]).toMatch(/^Redis refused a command \(OOM\): OOM command not allowed/);
      // Served from its own state meanwhile: the registration is known here.
      const byHash = await a.graphql("", { extensions: { persistedQuery } });
      expect(byHash.body.data).toMatchObject({ organization: { id: "org_acme" } });
      expect(warnings.filter((line) => line.includes("(OOM)"))).toHaveLength(1);
    } finally {
      await fleet.redis.onEachServer("config", "set", "maxmemory", "0");
    }
    // Accepting again: within the degraded period the instance tries Redis again, and shares.
    await waitUntil(() => a.redis.available(), DEGRADED_MS + 2_000, "shared again");
    expect(await readiness(a)).toMatchObject({ redis: "shared" });
    const other = "query Other { organization { id timezone } }";
    const otherQuery = { version: 1, sha256Hash: sha256(other) };
    await a.graphql(other, { extensions: { persistedQuery: otherQuery } });
    expect((await fleet.redis.keys(`${PREFIX}apq:*`)).join("\n")).toContain(otherQuery.sha256Hash);
  });

  it("a key of the wrong type is a refusal too, never a miss", async () => {
    const fleet = closing(await startFleet(1));
    const [a] = fleet.instances as [Instance];
    // Someone else's list where the fleet would keep this registration.
    const persistedQuery = { version: 1, sha256Hash: sha256(ORGANIZATION) };
    const probe = fleet.redis.client();
    try {
      await probe.rpush(`${PREFIX}apq:{${a.gateway.keyHash(ACME)}:${sha256(ORGANIZATION)}}`, "x");
      const byHash = await a.graphql("", { extensions: { persistedQuery } });
      expect(byHash.body.errors?.[0]?.extensions?.code).toBe("PERSISTED_QUERY_NOT_FOUND");
      await waitUntil(() => !a.redis.available(), 1_000, "the refusal seen");
      expect(await readiness(a)).toMatchObject({ redis: "degraded" });
      expect(
        metric(await a.metrics(), 'voicegraph_redis_failures_total{kind="WRONGTYPE"}'),
      ).toBeGreaterThan(0);
    } finally {
      probe.disconnect();
    }
  });
});
