import fc from "fast-check";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisPollerStore } from "../../src/fleet/poller-lease.ts";
import {
  createMemoryPollerStore,
  type Mark,
  MemoryPollerServer,
  type PollerStore,
} from "../../src/fleet/poller-store.ts";
import { createFleetRedis, type FleetRedis } from "../../src/fleet/redis.ts";
import { type RedisServer, startRedisServer } from "../support/redis-server.ts";
import { waitUntil } from "./fleet-harness.ts";

// The pollers' store in Redis (its Lua scripts) and in process (the model the protocol's property
// test runs on, and a lone gateway's store) are two copies of one set of rules: the same
// generated steps give the same roles, the same publish verdicts and the same newest update.

type Step =
  | { kind: "tick"; instance: number }
  | { kind: "mark"; instance: number }
  | { kind: "publish"; instance: number; mark: number; answer: number }
  | { kind: "latest" }
  | { kind: "restart" };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("tick" as const), instance: fc.integer({ min: 0, max: 1 }) }),
  fc.record({ kind: fc.constant("mark" as const), instance: fc.integer({ min: 0, max: 1 }) }),
  fc.record({
    kind: fc.constant("publish" as const),
    instance: fc.integer({ min: 0, max: 1 }),
    mark: fc.nat({ max: 5 }),
    answer: fc.nat({ max: 9 }),
  }),
  fc.constant({ kind: "latest" as const }),
  fc.constant({ kind: "restart" as const }),
);

const LEASE_MS = 60_000;
let redis: RedisServer;
let probe: Redis;
const connections: FleetRedis[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  probe = new Redis(redis.url);
});

afterAll(async () => {
  for (const connection of connections) await connection.close();
  probe.disconnect();
  await redis.close();
});

/** Runs the steps on two instances of one store; what each step answered, epochs by order of birth. */
async function run(
  stores: PollerStore[],
  restart: () => Promise<void>,
  steps: Step[],
  watch: string,
) {
  const marks: Mark[][] = [[], []];
  const epochs = new Map<string, number>();
  const epoch = (name: string) => {
    if (!epochs.has(name)) epochs.set(name, epochs.size);
    return epochs.get(name);
  };
  const seen: unknown[] = [];
  for (const step of steps) {
    if (step.kind === "restart") {
      await restart();
      seen.push("restart");
    } else if (step.kind === "latest") {
      const latest = await stores[0]?.latest(watch);
      seen.push(
        latest ? { epoch: epoch(latest.epoch), seq: latest.seq, answer: latest.answer } : null,
      );
    } else if (step.kind === "tick") {
      const tick = await stores[step.instance]?.tick(watch, LEASE_MS);
      if (tick?.role === "owner") {
        marks[step.instance]?.push(tick.mark);
        seen.push({ owner: step.instance, epoch: epoch(tick.mark.epoch), seq: tick.mark.seq });
      } else {
        seen.push({ follower: step.instance, latest: tick?.latest?.answer ?? null });
      }
    } else if (step.kind === "mark") {
      const mark = await stores[step.instance]?.mark(watch);
      if (mark) marks[step.instance]?.push(mark);
      seen.push({ mark: step.instance, epoch: mark && epoch(mark.epoch), seq: mark?.seq });
    } else {
      const taken = marks[step.instance] ?? [];
      const mark = taken[step.mark % Math.max(1, taken.length)];
      if (!mark) continue;
      const store = stores[step.instance] as PollerStore;
      const published = await store.publish(watch, {
        ...mark,
        from: store.instanceId,
        answer: step.answer,
      });
      seen.push({ publish: step.instance, published });
    }
  }
  return seen;
}

// It starts a server of its own: the one-server pass runs it, the cluster pass need not again.
describe("the pollers' store", () => {
  it("answers alike in Redis and in process, step for step", async () => {
    const redisStores = await Promise.all(
      [0, 1].map(async (instance) => {
        const connection = createFleetRedis({ url: redis.url, prefix: "vgdiff:" });
        connections.push(connection);
        await waitUntil(() => connection.available(), 5_000, "Redis connection");
        return createRedisPollerStore(connection, {
          intervalMs: 1_000,
          instanceId: `i${instance}`,
        });
      }),
    );
    const refusals: unknown[] = [];
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 30 }), async (steps) => {
        round += 1;
        const watch = `diff-${round}`;
        const server = new MemoryPollerServer();
        const memoryStores = [0, 1].map((instance) =>
          createMemoryPollerStore({ intervalMs: 1_000, server, instanceId: `i${instance}` }),
        );
        const inRedis = await run(
          redisStores,
          async () => void (await probe.flushall()),
          steps,
          watch,
        );
        const inProcess = await run(memoryStores, async () => server.restart(), steps, watch);
        expect(inRedis).toEqual(inProcess);
      }),
      { numRuns: 60 },
    );
    for (const store of redisStores) store.close();
    expect(refusals).toEqual([]);
  });
});
