import fc from "fast-check";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createFleetFlights } from "../../src/fleet/flights.ts";
import { createMemoryPollerStore, MemoryPollerServer } from "../../src/fleet/poller-store.ts";
import { CallSignal } from "../../src/upstream/call-signal.ts";
import type { UpstreamResponse } from "../../src/upstream/client.ts";

// Fleet flights over the in-process pollers' store, the model every store follows: instances
// fly reads of two keys while writes move the write version, an owner may die mid-call, the
// store may restart empty, and fast-check's scheduler decides when each call answers and when
// (or whether) each published answer reaches each instance.

const INSTANCES = 3;
const WAIT_MS = 50;
/**
 * What a busy machine may add to a timer of WAIT_MS (other test files share its two cores): far
 * below the 5 s a wait without a bound would last here.
 */
const TIMER_SLACK_MS = 400;

// Mostly reads, so flights have waiters; now and then a write, an owner's death, a restart.
const step = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant("read" as const),
      instance: fc.nat(INSTANCES - 1),
      key: fc.constantFrom("alpha", "beta"),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("write" as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("kill" as const), instance: fc.nat(INSTANCES - 1) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("restart" as const) }) },
);
/** Whether each published answer is lost on its way (most arrive, late or soon). */
const drops = fc.array(fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, fc.constant(true)), {
  minLength: 1,
  maxLength: 8,
});

interface Read {
  key: string;
  /** The writes answered before the read began: its answer must have been read after them. */
  writesBefore: number;
  instance: number;
  startedAt: number;
  /** When it stopped waiting on the fleet: its own call began, or an answer came. */
  decidedAt?: number;
  answer: Promise<UpstreamResponse<unknown>>;
}

/**
 * INSTANCES instances over one in-process store, each with its own metrics; `flightSoloMs` as
 * the stores', 0 for instances that never fly without the store.
 */
function instancesOf(server: MemoryPollerServer, flightSoloMs?: number) {
  const registries = Array.from({ length: INSTANCES }, () => new Registry());
  const stores = registries.map(() =>
    createMemoryPollerStore({
      intervalMs: 1_000,
      server,
      ...(flightSoloMs === undefined ? {} : { flightSoloMs }),
    }),
  );
  const lanes = stores.map((store, i) =>
    createFleetFlights(store, { maxWaitMs: WAIT_MS, registry: registries[i] as Registry }),
  );
  return { registries, stores, lanes };
}

/** One instance's reads by how their flight went (voicegraph_fleet_flights_total). */
async function outcomesOf(registry: Registry): Promise<Map<string, number>> {
  const counted = await registry.getSingleMetric("voicegraph_fleet_flights_total")?.get();
  return new Map(counted?.values.map(({ labels, value }) => [String(labels.outcome), value]));
}

describe("fleet flights under a scheduler", () => {
  it("answer each read with its own key's call made after its writes, each wait bounded", async () => {
    // How the runs' reads went, summed: the interleavings must include an instance that called
    // first (a flight it alone flew lately) and met a rival's lease.
    const outcomes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(step, { minLength: 1, maxLength: 14 }),
        drops,
        async (s, steps, drops) => {
          const server = new MemoryPollerServer();
          let delivered = 0;
          // A message is delayed by the scheduler, or dropped.
          server.deliver = (send) => {
            if (drops[delivered++ % drops.length]) return;
            void s.schedule(Promise.resolve(), "deliver").then(send);
          };
          const dead = new Set<number>();
          const { registries, lanes } = instancesOf(server);
          // The upstream: each key's value is the count of writes it has answered.
          let writes = 0;
          // Each instance's view of the write version: the last look it made, which writes since
          // may have left behind.
          const views: Array<string | undefined> = Array.from(
            { length: INSTANCES },
            () => undefined,
          );
          const reads: Read[] = [];
          let calls = 0;
          const read = (index: number, instance: number, key: string) => {
            const current: Read = {
              key,
              writesBefore: writes,
              instance,
              startedAt: performance.now(),
              answer: Promise.resolve() as never,
            };
            const call = async (): Promise<UpstreamResponse<unknown>> => {
              current.decidedAt ??= performance.now();
              calls += 1;
              // The upstream reads when the call begins: what it answers holds these writes.
              const body = { key, writes };
              // A dead instance's call never answers, nor is it ever published; one that dies
              // while its call is out is as dead.
              if (dead.has(instance)) return new Promise(() => undefined);
              await s.schedule(Promise.resolve(), `call ${index}`);
              if (dead.has(instance)) return new Promise(() => undefined);
              return { status: 200, body, rateLimit: undefined, requestId: undefined };
            };
            // The look at the write version goes out now and answers when the scheduler says:
            // the version then, which later writes may have moved past the read's start.
            const now = s.schedule(Promise.resolve(), `look ${index}`).then(() => {
              views[instance] = `v${writes}`;
              return `v${writes}`;
            });
            const lane = lanes[instance] as (typeof lanes)[number];
            current.answer = lane.fly(
              // The name sharing.ts gives: the key, the call and a write version.
              (version) => `flight:${key}:${version}`,
              { view: views[instance], now: () => now },
              call,
              new CallSignal(),
              () => undefined,
            );
            void current.answer.then(() => {
              current.decidedAt ??= performance.now();
            });
            reads.push(current);
          };
          // The steps one after another, whatever the scheduler runs between two of them.
          const sequence = s.scheduleSequence(
            steps.map((current, index) => ({
              label: `${current.kind} ${index}`,
              builder: async () => {
                if (current.kind === "write") writes += 1;
                else if (current.kind === "kill") dead.add(current.instance);
                else if (current.kind === "restart") server.restart();
                else read(index, current.instance, current.key);
              },
            })),
          );
          // Runs every step, scheduled call and delivery until every live read has its answer;
          // the bounded waits run on real timers.
          const until = Date.now() + 5_000;
          const settledReads = () =>
            reads.filter((current) => !dead.has(current.instance)).map((current) => current.answer);
          let done = false;
          void sequence.task.then(() =>
            Promise.all(settledReads()).finally(() => {
              done = true;
            }),
          );
          // A dead instance's reads too must stop waiting on the fleet (and begin their call).
          while (!done || reads.some((current) => current.decidedAt === undefined)) {
            await s.waitAll();
            await new Promise((resolve) => setTimeout(resolve, 5));
            if (Date.now() > until) throw new Error("a read did not settle");
          }
          // A dead instance's own reads never answer (its calls hang); every other read must.
          const live = reads.filter((current) => !dead.has(current.instance));
          for (const current of live) {
            const body = (await current.answer).body as { key: string; writes: number };
            // Never another key's answer, never one read before a write the read came after.
            expect(body.key).toBe(current.key);
            expect(body.writes).toBeGreaterThanOrEqual(current.writesBefore);
          }
          // With nothing lost, every waiter hears its owner: no read falls back to a call of
          // its own, and no more calls are made than reads.
          const lossless =
            steps.every((current) => current.kind !== "kill" && current.kind !== "restart") &&
            drops.every((dropped) => !dropped);
          if (lossless) {
            for (const lane of lanes) expect(lane.fallbacks()).toEqual({});
          }
          expect(calls).toBeLessThanOrEqual(reads.length);
          for (const registry of registries) {
            for (const [outcome, value] of await outcomesOf(registry)) {
              outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + value);
            }
          }
          // Every read, a dead instance's too, stopped waiting on the fleet within its bound.
          for (const read of reads) {
            expect(read.decidedAt).toBeDefined();
            expect((read.decidedAt as number) - read.startedAt).toBeLessThanOrEqual(
              WAIT_MS + TIMER_SLACK_MS,
            );
          }
        },
      ),
      { numRuns: 100 },
    );
    expect(outcomes.get("joined")).toBeGreaterThan(0);
  });

  // Flying alone, instance 0 asks the store nothing and so never races; with it off, its call
  // begins beside its lease, which another instance's may precede.
  it.each([
    ["with no word to the store", undefined],
    ["beside its lease", 0],
  ])(
    "calls at once what one instance alone flew lately (%s), and a rival costs each instance one call",
    async (_, flightSoloMs) => {
      let racedInAll = 0;
      let soloEnded = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.scheduler(),
          fc.array(fc.nat(INSTANCES - 1), { minLength: 1, maxLength: 10 }),
          async (s, readers) => {
            const server = new MemoryPollerServer();
            server.deliver = (send) => void s.schedule(Promise.resolve(), "deliver").then(send);
            const { registries, stores, lanes } = instancesOf(server, flightSoloMs);
            let calls = 0;
            const call = async (): Promise<UpstreamResponse<unknown>> => {
              calls += 1;
              await s.schedule(Promise.resolve(), "call");
              return {
                status: 200,
                body: { key: "alpha" },
                rateLimit: undefined,
                requestId: undefined,
              };
            };
            const fly = (instance: number) =>
              (lanes[instance] as (typeof lanes)[number]).fly(
                (version) => `flight:alpha:${version}`,
                { view: "v0", now: () => Promise.resolve("v0") },
                call,
                new CallSignal(),
                () => undefined,
              );
            // Instance 0 flew it alone before: the others have not heard it yet, or have.
            await s.waitFor(fly(0));
            const answers = Promise.all(readers.map(fly));
            // Every task out runs, the first flight's deliveries still pending included (waitFor
            // alone runs only what is scheduled after it begins, and a silent join schedules none).
            let settled = false;
            void answers.finally(() => {
              settled = true;
            });
            while (!settled) {
              await s.waitAll();
              await new Promise((resolve) => setTimeout(resolve, 1));
            }
            for (const answer of await answers) expect(answer.body).toEqual({ key: "alpha" });
            let racedHere = 0;
            for (const registry of registries) {
              const raced = (await outcomesOf(registry)).get("raced") ?? 0;
              // A rival's lease makes the flight a shared one: no instance races twice for it.
              expect(raced).toBeLessThanOrEqual(1);
              racedHere += raced;
            }
            // Nothing was lost: every waiter heard its owner.
            for (const lane of lanes) expect(lane.fallbacks()).toEqual({});
            // The first flight's call, one call per flight owned, and one per race at most.
            expect(calls).toBeLessThanOrEqual(1 + readers.length);
            racedInAll += racedHere;
            // Every message delivered: once another instance flew it, instance 0 asks first
            // (beside its lease, a refused rival leaves it alone: its next grant is announced).
            if (flightSoloMs === undefined && readers.some((reader) => reader !== 0)) {
              expect(stores[0]?.flownAlone("flight:alpha:v0")).toBe(false);
              soloEnded += 1;
            }
          },
        ),
        { numRuns: 100 },
      );
      if (flightSoloMs === 0) expect(racedInAll).toBeGreaterThan(0);
      else expect(racedInAll).toBe(0);
      if (flightSoloMs === undefined) expect(soloEnded).toBeGreaterThan(0);
    },
  );
});
