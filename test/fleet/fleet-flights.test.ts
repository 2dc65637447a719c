import fc from "fast-check";
import { Redis } from "ioredis";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createFleetFlights } from "../../src/fleet/flights.ts";
import { FLIGHT_RIVAL_MS } from "../../src/fleet/flights-in-air.ts";
import { createRedisPollerStore } from "../../src/fleet/poller-lease.ts";
import { createFleetRedis } from "../../src/fleet/redis.ts";
import { CallSignal } from "../../src/upstream/call-signal.ts";
import { type HeldUpstream, startHeldUpstream } from "../gateway/held-upstream.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { startFleetStore } from "../support/fleet-store.ts";
import { startRedisServer } from "../support/redis-server.ts";
import { type Instance, metric, PREFIX, startInstance, waitUntil } from "./fleet-harness.ts";

// One upstream flight per read across the fleet: three gateways on one real store, a small
// upstream that counts its calls and holds its reads until the test releases them.

const closing = closedAfterEachTest();
const ALPHA = "Bearer k_alpha";
const BETA = "Bearer k_beta";
const ORG = "{ organization { name } }";
const AGENT = '{ agent(id: "agt_a1") { name } }';
const rename = (name: string) =>
  `mutation { updateAgent(id: "agt_a1", input: { name: "${name}" }) { agent { name } } }`;

type Answer = Awaited<ReturnType<Instance["graphql"]>>;
const orgOf = (answer: Answer) =>
  (answer.body.data as { organization?: { name: string } } | null | undefined)?.organization?.name;
const agentOf = (answer: Answer) =>
  (answer.body.data as { agent?: { name: string } } | null | undefined)?.agent?.name;

async function setUp(options: { waitMs?: number; flights?: boolean; oneServer?: boolean } = {}) {
  const store = closing(await startFleetStore(options.oneServer ? "server" : undefined));
  const upstream = closing(
    await startHeldUpstream({
      keys: { k_alpha: "org_a", k_beta: "org_b" },
      agents: { org_a: ["agt_a1"], org_b: ["agt_b1"] },
    }),
  );
  const instances: Instance[] = [];
  for (let i = 0; i < 3; i++) {
    instances.push(
      closing(
        await startInstance(store, upstream.url, {
          sharing: {
            fleetFlights: options.flights ?? true,
            fleetFlightWaitMs: options.waitMs ?? 10_000,
          },
        }),
      ),
    );
  }
  // Each key proves itself on each instance first, so no probe stands between the steps below;
  // held a while, so each instance has seen a slow upstream and waits on a flight long enough
  // for the test to see it waiting.
  for (const instance of instances) {
    for (const [key, org] of [
      [ALPHA, "org_a v0"],
      [BETA, "org_b v0"],
    ]) {
      upstream.hold(true);
      const answer = instance.graphql(ORG, { authorization: key });
      await upstream.held(1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      upstream.hold(false);
      upstream.release();
      expect(orgOf(await answer)).toBe(org);
    }
  }
  return { store, upstream, instances };
}

/** Flights the instance waits on now (another instance holds them). */
async function waiting(instance: Instance): Promise<number> {
  return metric(await instance.metrics(), "voicegraph_fleet_flights_waiting") ?? 0;
}

async function waitingOn(instances: Instance[], count: number): Promise<void> {
  const until = Date.now() + 5_000;
  for (;;) {
    const counts = await Promise.all(instances.map(waiting));
    if (counts.reduce((a, b) => a + b, 0) >= count) return;
    if (Date.now() > until) throw new Error(`waiting flights: ${counts.join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const getsOf = (upstream: HeldUpstream, path: string) =>
  upstream.requests.filter((request) => request === `GET ${path}`).length;

async function readyz(instance: Instance): Promise<Record<string, unknown>> {
  return (await (await fetch(`${instance.url}/readyz`)).json()) as Record<string, unknown>;
}

/**
 * One instance's flights over a Redis server of the test's own: its store, heard on the flights
 * channel before it is returned, and its metrics.
 */
async function flightsOn(url: string, commandTimeoutMs?: number) {
  const redis = createFleetRedis({
    url,
    prefix: "vgtest:",
    ...(commandTimeoutMs === undefined ? {} : { commandTimeoutMs }),
  });
  closing({ close: () => redis.close() });
  const store = createRedisPollerStore(redis, { intervalMs: 200 });
  closing({ close: async () => store.close() });
  await waitUntil(() => store.hearingFlights(), 5_000, "flights channel");
  const registry = new Registry();
  return { store, registry, flights: createFleetFlights(store, { maxWaitMs: 2_000, registry }) };
}

type Lane = Awaited<ReturnType<typeof flightsOn>>;

/** Until the lane waits on one flight (another instance's). */
const waitingOnOne = (on: Lane, what: string) =>
  waitUntil(
    async () => metric(await on.registry.metrics(), "voicegraph_fleet_flights_waiting") === 1,
    5_000,
    what,
  );

/**
 * Reads of `flight:<read>` on lanes, each call logged by who made it; a held call waits until
 * `release()`, and `holding()` says whether one does.
 */
function heldReads() {
  const calls: string[] = [];
  let release: (() => void) | undefined;
  const fly = (on: Lane, who: string, read: string, held = false) =>
    on.flights.fly(
      () => `flight:${read}`,
      { view: "v", now: () => Promise.resolve("v") },
      async () => {
        calls.push(who);
        if (held) await new Promise<void>((resolve) => (release = resolve));
        return { status: 200, body: { from: who }, rateLimit: undefined, requestId: undefined };
      },
      new CallSignal(),
      () => undefined,
    );
  return { calls, fly, release: () => release?.(), holding: () => release !== undefined };
}

/** A read of `flight:<read>` held on a while b waits for it: one call, a's, answers both. */
async function sharedOnce(a: Lane, b: Lane, read: string): Promise<void> {
  const { calls, fly, release, holding } = heldReads();
  const owned = fly(a, "a", read, true);
  await waitUntil(holding, 2_000, "a's call");
  const waited = fly(b, "b", read);
  await waitingOnOne(b, "b waiting");
  release();
  expect((await owned).body).toEqual({ from: "a" });
  expect((await waited).body).toEqual({ from: "a" });
  expect(calls).toEqual(["a"]);
}

describe("one flight per read across the fleet", () => {
  it("makes one upstream call for identical reads on three instances", async () => {
    const { upstream, instances } = await setUp();
    const before = getsOf(upstream, "/v1/organization");
    upstream.hold(true);
    const answers = Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (instances[i % 3] as Instance).graphql(ORG, { authorization: ALPHA }),
      ),
    );
    await upstream.held(1);
    // The two other instances wait on the owner's flight (their own reads join locally).
    await waitingOn(instances, 2);
    upstream.hold(false);
    upstream.release();
    for (const answer of await answers) expect(orgOf(answer)).toBe("org_a v0");
    expect(getsOf(upstream, "/v1/organization") - before).toBe(1);
  });

  it("wakes no other instance for reads that never meet, and still shares the burst after them", async () => {
    const { store, upstream, instances } = await setUp();
    const listener = store.client();
    closing({ close: () => listener.disconnect() });
    const heard: string[] = [];
    listener.on("message", (_channel: string, message: string) => heard.push(message));
    await listener.subscribe(`${PREFIX}flights`);
    const before = getsOf(upstream, "/v1/organization");
    // One read at a time, each instance in turn: each a flight of its own, which no other
    // instance wants while it flies.
    for (let i = 0; i < 6; i++) {
      const answer = await (instances[i % 3] as Instance).graphql(ORG, { authorization: ALPHA });
      expect(orgOf(answer)).toBe("org_a v0");
    }
    expect(getsOf(upstream, "/v1/organization") - before).toBe(6);
    // A fence: a contended flight is announced, on the same channel, after them.
    upstream.hold(true);
    const fenced = Promise.all(
      [2, 1, 0].map((i) => (instances[i] as Instance).graphql(ORG, { authorization: ALPHA })),
    );
    await upstream.held(1);
    await waitingOn(instances, 2);
    upstream.hold(false);
    upstream.release();
    for (const answer of await fenced) expect(orgOf(answer)).toBe("org_a v0");
    await waitUntil(() => heard.length > 0, 5_000, "the burst's answer");
    // Nothing was heard of the six flights: only the burst's answer, which two instances awaited.
    expect(heard.map((message) => JSON.parse(message.split("\n")[0] as string).seq)).toHaveLength(
      1,
    );
    // The burst, whichever instance came first, was one call: each instance knew the flight was
    // another's lately (its last lease went to another instance), so none called before asking.
    expect(getsOf(upstream, "/v1/organization") - before).toBe(7);
    for (const instance of instances) {
      expect(await instance.metrics()).not.toMatch(
        /voicegraph_fleet_flights_total\{outcome="raced"\}/,
      );
    }
  });

  // One server's statistics (a cluster's are spread over its masters): one server.
  it("costs Redis its owner's two scripts however many wait, and keeps no answer", async () => {
    const { store, upstream, instances } = await setUp({ oneServer: true });
    const [owner, ...others] = instances as [Instance, Instance, Instance];
    const probe = store.client();
    closing({ close: () => probe.disconnect() });
    /**
     * One flight of the owner's, held while twelve reads on the two others wait on it. Its
     * landing is one script: with its answer (an EVAL, as every recorded message) when its grant
     * was announced, else without (an EVALSHA), the answer published after it if awaited.
     */
    const flight = async (announced: boolean) => {
      await probe.config("RESETSTAT");
      upstream.hold(true);
      const owned = owner.graphql(ORG, { authorization: ALPHA });
      await upstream.held(1);
      // A contended flight's grant is announced in its lease script: heard on every instance in
      // a moment (a few milliseconds; the wait is long for a busy machine).
      await new Promise((resolve) => setTimeout(resolve, 600));
      const answers = Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (others[i % 2] as Instance).graphql(ORG, { authorization: ALPHA }),
        ),
      );
      await waitingOn(others, 2);
      upstream.hold(false);
      upstream.release();
      expect(orgOf(await owned)).toBe("org_a v0");
      for (const answer of await answers) expect(orgOf(answer)).toBe("org_a v0");
      const stats = String(await probe.info("commandstats"));
      const calls = (command: string) =>
        Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
      // Any other EVAL is an instance's check of the store's life (once a second), which reads
      // one key.
      const lifeChecks = calls("eval") - (announced ? 1 : 0);
      expect(lifeChecks).toBeGreaterThanOrEqual(0);
      expect(calls("subscribe")).toBe(0);
      const leases = calls("evalsha") - (announced ? 0 : 1);
      // Reads look at the write version, those of one turn of an instance's loop with one GET:
      // at least one per instance, at most one per read; each lease script reads its lease and
      // the flight's last owner, the landing its lease.
      const looks = calls("get") - 2 * leases - 1 - lifeChecks;
      expect(looks).toBeGreaterThanOrEqual(3);
      expect(looks).toBeLessThanOrEqual(13);
      return { leases, publishes: calls("publish") };
    };
    // The reads before came one at a time: no one knew of the flight. Each instance that waits
    // asks the store once (the refusal marks the flight contended), and the answer goes out once.
    expect(await flight(false)).toEqual({ leases: 3, publishes: 1 });
    // Contended: the grant is announced, and every instance waits without a command.
    expect(await flight(true)).toEqual({ leases: 1, publishes: 2 });
    // No answer is kept, nor a lease or a counter once answered: only who flew the flight last,
    // and that it was contended, each for the rival window.
    const left = await store.keys("*flight*");
    expect(new Set(left.map((key) => key.replace(/^.*:/, "")))).toEqual(
      new Set(["contended", "last"]),
    );
    for (const key of left) {
      const ttl = await probe.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(FLIGHT_RIVAL_MS);
      expect(await probe.type(key)).toBe("string");
      expect((await probe.get(key))?.length ?? 0).toBeLessThan(64);
    }
  });

  it("writes a flight's answer out, to Redis too, only when another instance awaits it", async () => {
    const server = closing(await startRedisServer());
    const [a, b] = [await flightsOn(server.url), await flightsOn(server.url)];
    const probe = new Redis(server.url);
    closing({ close: async () => probe.disconnect() });
    const received = async () =>
      Number(/total_net_input_bytes:(\d+)/.exec(String(await probe.info("stats")))?.[1]);
    const blob = "x".repeat(100_000);
    // Counts how often an answer is turned into text for the fleet.
    let serialized = 0;
    class Answer {
      readonly blob: string;
      constructor(text: string) {
        this.blob = text;
      }
      toJSON() {
        serialized += 1;
        return { blob: this.blob };
      }
    }
    let release: (() => void) | undefined;
    const fly = (on: Lane, read: string, held = false) =>
      on.flights.fly(
        () => `flight:${read}`,
        { view: "v", now: () => Promise.resolve("v") },
        async () => {
          if (held) await new Promise<void>((resolve) => (release = resolve));
          return {
            status: 200,
            body: new Answer(blob),
            rateLimit: undefined,
            requestId: undefined,
          };
        },
        new CallSignal(),
        () => undefined,
      );
    // Flown by one instance, no other waiting: the lease and the landing cross, not the answer.
    let before = await received();
    expect((await fly(a, "alone")).body).toEqual({ blob });
    // Its landing is on its way as the read returns: done once the lease is gone.
    await waitUntil(
      async () => (await probe.exists("vgtest:{poll:flight:alone}:lease")) === 0,
      5_000,
      "the landing",
    );
    expect((await received()) - before).toBeLessThan(blob.length / 10);
    expect(serialized).toBe(0);
    // Granted quietly, then awaited by a refused read of another instance: the answer crosses
    // once, after the landing, and the waiter hears it.
    before = await received();
    const owned = fly(a, "awaited", true);
    await waitUntil(() => release !== undefined, 5_000, "the owner's call");
    const joined = fly(b, "awaited");
    await waitingOnOne(b, "the waiter");
    release?.();
    expect((await owned).body).toEqual({ blob });
    expect((await joined).body).toEqual({ blob });
    const crossed = (await received()) - before;
    expect(crossed).toBeGreaterThan(blob.length);
    expect(crossed).toBeLessThan(2 * blob.length);
    expect(serialized).toBe(1);
  });

  it("makes one call per instance with UPSTREAM_FLEET_FLIGHTS off", async () => {
    const { upstream, instances } = await setUp({ flights: false });
    const before = getsOf(upstream, "/v1/organization");
    upstream.hold(true);
    const answers = Promise.all(
      instances.map((instance) => instance.graphql(ORG, { authorization: ALPHA })),
    );
    await upstream.held(3);
    upstream.hold(false);
    upstream.release();
    for (const answer of await answers) expect(orgOf(answer)).toBe("org_a v0");
    expect(getsOf(upstream, "/v1/organization") - before).toBe(3);
  });

  it("never answers one key's read with another key's flight", async () => {
    const { upstream, instances } = await setUp();
    const read = fc.record({ instance: fc.nat(2), key: fc.constantFrom(ALPHA, BETA) });
    await fc.assert(
      fc.asyncProperty(fc.array(read, { minLength: 2, maxLength: 12 }), async (reads) => {
        // The last run's answers reach every instance first: a read that begins while its
        // instance still hears a flight in the air rightly joins it, and would make no call.
        await new Promise((resolve) => setTimeout(resolve, 100));
        upstream.hold(true);
        const answers = Promise.all(
          reads.map(({ instance, key }) =>
            (instances[instance] as Instance).graphql(ORG, { authorization: key }),
          ),
        );
        // Each key's flight out at once, so a waiter could be handed the other's answer.
        await upstream.held(new Set(reads.map((read) => read.key)).size);
        upstream.hold(false);
        upstream.release();
        const got = await answers;
        got.forEach((answer, i) => {
          expect(orgOf(answer)).toBe(reads[i]?.key === ALPHA ? "org_a v0" : "org_b v0");
        });
      }),
      { numRuns: 15 },
    );
    // Reads waited on other instances' flights, and never on a foreign one.
    let joined = 0;
    for (const instance of instances) {
      joined +=
        metric(await instance.metrics(), 'voicegraph_fleet_flights_total{outcome="joined"}') ?? 0;
    }
    expect(joined).toBeGreaterThan(0);
  });

  it("falls back to its own call within the bound when the owner is gone", async () => {
    // The lease outlives the steps below on a busy machine; the bound is the observed latency's.
    const { upstream, instances } = await setUp({ waitMs: 1_000 });
    const [owner, ...waiters] = instances as [Instance, Instance, Instance];
    upstream.hold(true);
    const owned = owner.graphql(ORG, { authorization: ALPHA });
    await upstream.held(1);
    upstream.hold(false);
    const started = Date.now();
    const answers = Promise.all(
      waiters.map((instance) => instance.graphql(ORG, { authorization: ALPHA })),
    );
    await waitingOn(waiters, 2);
    // The owner's link to the store goes: it can never publish what it reads.
    await owner.redis.close();
    for (const answer of await answers) expect(orgOf(answer)).toBe("org_a v0");
    expect(Date.now() - started).toBeLessThan(2_000);
    for (const instance of waiters) {
      expect(
        metric(await instance.metrics(), 'voicegraph_fleet_flights_total{outcome="timeout"}'),
      ).toBe(1);
      expect(await readyz(instance)).toMatchObject({ flightFallbacks: { timeout: 1 } });
    }
    upstream.release();
    expect(orgOf(await owned)).toBe("org_a v0");
  });

  it("falls back when the store restarts mid-flight", async () => {
    const { store, upstream, instances } = await setUp({ waitMs: 300 });
    const [owner, ...waiters] = instances as [Instance, Instance, Instance];
    upstream.hold(true);
    const owned = owner.graphql(ORG, { authorization: ALPHA });
    await upstream.held(1);
    const answers = Promise.all(
      waiters.map((instance) => instance.graphql(ORG, { authorization: ALPHA })),
    );
    await waitingOn(waiters, 2);
    await store.kill();
    await store.restart();
    upstream.hold(false);
    upstream.release();
    expect(orgOf(await owned)).toBe("org_a v0");
    for (const answer of await answers) expect(orgOf(answer)).toBe("org_a v0");
    for (const instance of waiters) {
      const fallbacks = (await readyz(instance)).flightFallbacks as Record<string, number>;
      expect(fallbacks.timeout).toBe(1);
    }
  });

  it("stops waiting when the waiter's client hangs up, and leaves nothing unhandled", async () => {
    const { upstream, instances } = await setUp();
    const [owner, waiter] = instances as [Instance, Instance, Instance];
    const before = getsOf(upstream, "/v1/organization");
    upstream.hold(true);
    const owned = owner.graphql(ORG, { authorization: ALPHA });
    await upstream.held(1);
    const hangUp = new AbortController();
    const gone = fetch(`${waiter.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: ALPHA },
      body: JSON.stringify({ query: ORG }),
      signal: hangUp.signal,
    }).catch((error: unknown) => error);
    await waitingOn([waiter], 1);
    hangUp.abort();
    expect(await gone).toBeInstanceOf(Error);
    // Its flight's only operation left: the wait ends, with no call of its own.
    const until = Date.now() + 5_000;
    while ((await waiting(waiter)) > 0) {
      if (Date.now() > until) throw new Error("the wait outlived its operation");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    upstream.hold(false);
    upstream.release();
    expect(orgOf(await owned)).toBe("org_a v0");
    expect(getsOf(upstream, "/v1/organization") - before).toBe(1);
  });

  it("never gives a read that starts after a write an answer read before it", async () => {
    const { upstream, instances } = await setUp();
    const [reader, writer, late] = instances as [Instance, Instance, Instance];
    upstream.hold(true);
    const early = reader.graphql(AGENT, { authorization: ALPHA });
    await upstream.held(1);
    const written = await writer.graphql(rename("renamed"), { authorization: ALPHA });
    expect(written.body.errors).toBeUndefined();
    // Started after the write was answered: its own flight, read after the write.
    const after = late.graphql(AGENT, { authorization: ALPHA });
    await upstream.held(2);
    upstream.hold(false);
    upstream.release();
    expect(agentOf(await early)).toBe("agt_a1 v0");
    expect(agentOf(await after)).toBe("renamed");
    // It owned a flight of its own at once: it never waited on the one begun before the write.
    expect((await readyz(late)).flightFallbacks).toBeUndefined();
  });

  // One server of the test's own, its scripts paused (CLIENT PAUSE WRITE) while the reads go
  // out: a call that begins during the pause began before its lease was answered.
  it("calls at once a read only this instance made lately, and asks first for a shared one", async () => {
    const server = closing(await startRedisServer());
    const lane = () => flightsOn(server.url, 5_000);
    const [a, b] = [await lane(), await lane()];
    let paused = false;
    const calledWhilePaused = new Map<string, boolean>();
    const looked = new Set<string>();
    const fly = (on: typeof a, read: string) =>
      on.flights.fly(
        () => `flight:${read}`,
        {
          view: "v",
          now: () => {
            looked.add(read);
            return Promise.resolve("v");
          },
        },
        async () => {
          calledWhilePaused.set(read, paused);
          return { status: 200, body: { read }, rateLimit: undefined, requestId: undefined };
        },
        new CallSignal(),
        () => undefined,
      );
    // "alone" only ever flown by a; "shared" by b, then by a once it heard b's.
    await fly(a, "alone");
    await fly(b, "shared");
    await fly(a, "shared");
    await waitUntil(() => !a.store.flownAlone("flight:shared"), 5_000, "b's flight heard");
    expect(a.store.flownAlone("flight:alone")).toBe(true);
    const owned = async () =>
      (await a.registry.getSingleMetric("voicegraph_fleet_flights_total")?.get())?.values.find(
        ({ labels }) => labels.outcome === "owned",
      )?.value ?? 0;
    const ownedBefore = await owned();
    calledWhilePaused.clear();
    looked.clear();
    const pauser = new Redis(server.url);
    closing({ close: async () => pauser.disconnect() });
    await pauser.call("client", "pause", "3000", "WRITE");
    paused = true;
    const alone = fly(a, "alone");
    const shared = fly(a, "shared");
    await waitUntil(() => calledWhilePaused.has("alone"), 2_000, "the lone read's call");
    expect(calledWhilePaused.get("alone")).toBe(true);
    // The shared read's call waits for its lease, which waits for Redis.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calledWhilePaused.has("shared")).toBe(false);
    paused = false;
    await pauser.call("client", "unpause");
    expect((await alone).body).toEqual({ read: "alone" });
    expect((await shared).body).toEqual({ read: "shared" });
    expect(calledWhilePaused.get("shared")).toBe(false);
    // Nor does the lone read look at the write version: its call began after the read did.
    expect([...looked]).toEqual(["shared"]);
    // Both took their lease once Redis answered: their answers went out to the fleet.
    expect(await owned()).toBe(ownedBefore + 2);
  });

  it("calls at once again a read whose last lease it took, though another instance flew it before", async () => {
    const server = closing(await startRedisServer());
    const [a, b] = [await flightsOn(server.url), await flightsOn(server.url)];
    const probe = new Redis(server.url);
    closing({ close: async () => probe.disconnect() });
    const read = async (on: Lane) => {
      await on.flights.fly(
        () => "flight:x",
        { view: "v", now: () => Promise.resolve("v") },
        async () => ({ status: 200, body: {}, rateLimit: undefined, requestId: undefined }),
        new CallSignal(),
        () => undefined,
      );
      // Its landing is on its way as the read returns: done once the lease is gone.
      await waitUntil(
        async () => (await probe.exists("vgtest:{poll:flight:x}:lease")) === 0,
        5_000,
        "the landing",
      );
    };
    await read(b);
    // b took the last lease: a's flight is a shared one, asked for before it is called.
    await read(a);
    expect(a.store.flownAlone("flight:x")).toBe(false);
    // No other instance took it since a did: a calls it at once again.
    await read(a);
    expect(a.store.flownAlone("flight:x")).toBe(true);
    await read(b);
    await read(a);
    expect(a.store.flownAlone("flight:x")).toBe(false);
  });

  // One server of the test's own, its statistics reset around the lone read.
  it("flies a read it alone made lately without a word to Redis, until it hears a rival's grant", async () => {
    const server = closing(await startRedisServer());
    const [a, b] = [await flightsOn(server.url), await flightsOn(server.url)];
    const probe = new Redis(server.url);
    closing({ close: async () => probe.disconnect() });
    const listener = new Redis(server.url);
    closing({ close: async () => listener.disconnect() });
    const heard: string[] = [];
    listener.on("message", (_channel: string, message: string) => heard.push(message));
    await listener.subscribe("vgtest:flights");
    const { calls, fly } = heldReads();
    // Leases granted since the statistics were reset: each grant counts one on the counter.
    const grants = async () => {
      const stats = String(await probe.info("commandstats"));
      return Number(/cmdstat_hincrby:calls=(\d+)/.exec(stats)?.[1] ?? 0);
    };
    // Its first flight asks the store: granted with no rival, the name is a's alone.
    expect((await fly(a, "a", "x")).body).toEqual({ from: "a" });
    await waitUntil(
      async () => (await probe.exists("vgtest:{poll:flight:x}:lease")) === 0,
      5_000,
      "the landing",
    );
    await probe.config("RESETSTAT");
    expect((await fly(a, "a", "x")).body).toEqual({ from: "a" });
    expect((await fly(a, "a", "x")).body).toEqual({ from: "a" });
    expect(await grants()).toBe(0);
    expect(a.store.flownAlone("flight:x")).toBe(true);
    // b's grant finds a the last owner, one that may fly alone, and says so to every instance.
    expect((await fly(b, "b", "x")).body).toEqual({ from: "b" });
    await waitUntil(() => !a.store.flownAlone("flight:x"), 5_000, "b's grant heard");
    expect(heard.map((text) => JSON.parse(text))).toEqual([
      { flight: "flight:x", rival: b.store.instanceId },
    ]);
    // a asks the store first again.
    expect((await fly(a, "a", "x")).body).toEqual({ from: "a" });
    expect(await grants()).toBe(2);
    expect(calls).toEqual(["a", "a", "a", "b", "a"]);
    // A lease granted with no rival, refused to another instance while a calls: the refused
    // read waits for a's answer, and the name is no longer a's alone.
    await sharedOnce(a, b, "y");
    await waitUntil(() => !a.store.flownAlone("flight:y"), 5_000, "the landing awaited");
  });

  // One server of the test's own. A process starved past a waiter's bound (two shared cores,
  // ten gateways) wakes with the answer already in its socket: it must be read before the
  // expired timer turns the wait into a call of its own.
  it("reads an answer that came while the process was busy before its bound ends the wait", async () => {
    const server = closing(await startRedisServer());
    const lane = () => flightsOn(server.url);
    const [a, b] = [await lane(), await lane()];
    // Contended once first: the flight's next grant is announced, so its landing carries the
    // answer in one script, which this process writes before it is busy.
    await sharedOnce(a, b, "starved");
    const { calls, fly, release, holding } = heldReads();
    const owned = fly(a, "a", "starved", true);
    await waitUntil(holding, 2_000, "a's call");
    const waited = fly(b, "b", "starved");
    await waitingOnOne(b, "b waiting");
    release();
    expect((await owned).body).toEqual({ from: "a" });
    // The landing is written; then this process is busy past b's bound (2 s, long enough for
    // the steps above on a busy machine) while Redis delivers it.
    await new Promise((resolve) => setImmediate(resolve));
    const busyUntil = performance.now() + 2_300;
    while (performance.now() < busyUntil) {}
    expect((await waited).body).toEqual({ from: "a" });
    expect(calls).toEqual(["a"]);
    expect(b.flights.fallbacks()).toEqual({});
  });

  // One server of the test's own, paused (CLIENT PAUSE) past the command timeout.
  it("takes a flight the store cannot answer in time as the instance's own, not the fleet's", async () => {
    const server = closing(await startRedisServer());
    const { store } = await flightsOn(server.url);
    expect(await store.flight("flight:shared", 1_000)).toMatchObject({ role: "owner" });
    expect(await store.flight("flight:shared", 1_000)).not.toHaveProperty("alone");
    const pauser = new Redis(server.url);
    closing({ close: async () => pauser.disconnect() });
    await pauser.call("client", "pause", "600", "ALL");
    expect(await store.flight("flight:stalled", 1_000)).toMatchObject({
      role: "owner",
      alone: true,
    });
  });
});
