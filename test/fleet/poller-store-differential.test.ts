import fc from "fast-check";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flightText, parseFlightMessage } from "../../src/fleet/flights-in-air.ts";
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

/** Two instances' Redis stores under `prefix`, each connected and hearing the flights channel. */
async function redisStoresOn(prefix: string): Promise<PollerStore[]> {
  return Promise.all(
    [0, 1].map(async (instance) => {
      const connection = createFleetRedis({ url: redis.url, prefix });
      connections.push(connection);
      await waitUntil(() => connection.available(), 5_000, "Redis connection");
      const store = createRedisPollerStore(connection, {
        intervalMs: 1_000,
        instanceId: `i${instance}`,
      });
      await waitUntil(() => store.hearingFlights(), 5_000, "flights channel");
      return store;
    }),
  );
}

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
    const redisStores = await redisStoresOn("vgdiff:");
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

// Flights add the lease's announcement (only for a flight contended lately), the answer (only
// if announced or awaited) and who took the last lease: the same steps make the same roles, the
// same messages on the flights channel and the same rivals on both.
type FlightStep =
  | { kind: "flight"; instance: number }
  | { kind: "land"; instance: number; mark: number }
  | { kind: "restart" };

const flightStepArb: fc.Arbitrary<FlightStep> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("flight" as const),
      instance: fc.integer({ min: 0, max: 1 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("land" as const),
      instance: fc.integer({ min: 0, max: 1 }),
      mark: fc.nat({ max: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "restart" as const }) },
);

interface FlightsUnderTest {
  stores: PollerStore[];
  /** The store loses its data, and each instance forgets what seemed in the air of `name`. */
  restart(name: string): Promise<void>;
  /** What the flights channel carried since the last call, once every instance heard it. */
  settle(): Promise<string[]>;
}

async function runFlights(on: FlightsUnderTest, steps: FlightStep[], name: string) {
  const marks: Mark[][] = [[], []];
  const epochs = new Map<string, number>();
  const epoch = (text: string) => {
    if (!epochs.has(text)) epochs.set(text, epochs.size);
    return epochs.get(text);
  };
  const seen: unknown[] = [];
  for (const step of steps) {
    if (step.kind === "restart") {
      await on.restart(name);
      seen.push("restart");
    } else if (step.kind === "flight") {
      const tick = await on.stores[step.instance]?.flight(name, LEASE_MS);
      if (tick?.role === "owner") {
        marks[step.instance]?.push(tick.mark);
        seen.push({ owner: step.instance, epoch: epoch(tick.mark.epoch), seq: tick.mark.seq });
      } else {
        const latest = tick?.latest;
        seen.push({ follower: step.instance, latest: latest && [epoch(latest.epoch), latest.seq] });
      }
    } else {
      const taken = marks[step.instance] ?? [];
      const mark = taken[step.mark % Math.max(1, taken.length)];
      if (!mark) continue;
      const store = on.stores[step.instance] as PollerStore;
      await store.land(name, { ...mark, from: store.instanceId }, () => '{"ok":1}');
      seen.push({ land: step.instance, epoch: epoch(mark.epoch), seq: mark.seq });
    }
    const heard = await on.settle();
    seen.push({
      heard: heard.map((text) => {
        const message = parseFlightMessage(text);
        if (!message) return "unparsed";
        if ("rival" in message) {
          return ["rival", on.stores.findIndex((store) => store.instanceId === message.rival)];
        }
        const at = "started" in message ? message.started : message;
        return ["started" in message ? "started" : "landed", epoch(at.epoch), at.seq];
      }),
      alone: on.stores.map((store) => store.flownAlone(name)),
    });
  }
  return seen;
}

/** Polls `predicate` every millisecond or two (the steps are many and each waits once). */
async function soon(predicate: () => boolean, what: string): Promise<void> {
  const until = Date.now() + 5_000;
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`${what}: not within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

describe("the flights' store", () => {
  it("announces, answers and names rivals alike in Redis and in process, step for step", async () => {
    const redisStores = await redisStoresOn("vgflights:");
    const listener = new Redis(redis.url);
    const carried: string[] = [];
    listener.on("message", (_channel: string, text: string) => carried.push(text));
    await listener.subscribe("vgflights:flights");
    let fences = 0;
    const fenceOf = (flight: string) =>
      JSON.stringify({ flight, started: { epoch: "0", seq: 1, from: "fence", leaseMs: 60_000 } });
    // A fence: a lease's announcement of a flight of its own, which each instance has heard
    // once it is in the air there; the channel keeps one order, so all before it were heard too.
    const inRedis: FlightsUnderTest = {
      stores: redisStores,
      // Each instance finds the lost data at its next look at the store's life (within a
      // second) and then forgets what seemed in the air: waited for here, so that it falls in
      // this step and not in some later one. A fence in the air shows when.
      async restart() {
        fences += 1;
        const marker = `fence-${fences}`;
        await probe.publish("vgflights:flights", fenceOf(marker));
        await soon(
          () => redisStores.every((store) => store.announced(marker) !== undefined),
          "the marker",
        );
        await probe.flushall();
        await soon(
          () => redisStores.every((store) => store.announced(marker) === undefined),
          "the instances' catch-up",
        );
      },
      async settle() {
        fences += 1;
        const fence = `fence-${fences}`;
        await probe.publish("vgflights:flights", fenceOf(fence));
        await soon(
          () =>
            redisStores.every((store) => store.announced(fence) !== undefined) &&
            carried.at(-1)?.includes(`"${fence}"`) === true,
          "the fence",
        );
        // The counter of a landed flight lasts 1 ms: both stores step on past it alike.
        await new Promise((resolve) => setTimeout(resolve, 3));
        // Every fence is the test's own, this one or one heard late: none is a step's message.
        return carried
          .splice(0)
          .filter((text) => parseFlightMessage(text)?.flight.startsWith("fence-") !== true);
      },
    };
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(flightStepArb, { minLength: 1, maxLength: 14 }), async (steps) => {
        round += 1;
        const name = `flight:diff-${round}`;
        const server = new MemoryPollerServer();
        const memoryStores = [0, 1].map((instance) =>
          createMemoryPollerStore({ intervalMs: 1_000, server, instanceId: `i${instance}` }),
        );
        const inProcessHeard: string[] = [];
        server.onFlights("listener", (message) =>
          inProcessHeard.push(
            "answer" in message ? flightText(message.flight, message) : JSON.stringify(message),
          ),
        );
        const inProcess: FlightsUnderTest = {
          stores: memoryStores,
          async restart(flight) {
            server.restart();
            for (const store of memoryStores) store.forgetFlight(flight);
          },
          async settle() {
            await new Promise((resolve) => setTimeout(resolve, 3));
            return inProcessHeard.splice(0);
          },
        };
        const redisSeen = await runFlights(inRedis, steps, name);
        const processSeen = await runFlights(inProcess, steps, name);
        for (const store of memoryStores) store.close();
        expect(redisSeen).toEqual(processSeen);
      }),
      {
        numRuns: 25,
        examples: [
          // One read after another's: the second instance learns of its rival from the store.
          [
            [
              { kind: "flight", instance: 0 },
              { kind: "land", instance: 0, mark: 0 },
              { kind: "flight", instance: 1 },
              { kind: "land", instance: 1, mark: 0 },
            ],
          ],
          // A refusal: the answer goes out, and the next flight is announced.
          [
            [
              { kind: "flight", instance: 0 },
              { kind: "flight", instance: 1 },
              { kind: "land", instance: 0, mark: 0 },
              { kind: "flight", instance: 1 },
              { kind: "land", instance: 1, mark: 0 },
            ],
          ],
        ],
      },
    );
    listener.disconnect();
    for (const store of redisStores) store.close();
  });
});
