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
/** What a busy machine may add to a timer of WAIT_MS. */
const TIMER_SLACK_MS = 150;

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
  name: string;
  key: string;
  /** The writes answered before the read began: its answer must have been read after them. */
  writesBefore: number;
  instance: number;
  startedAt: number;
  /** When it stopped waiting on the fleet: its own call began, or an answer came. */
  decidedAt?: number;
  answer: Promise<UpstreamResponse<unknown>>;
}

describe("fleet flights under a scheduler", () => {
  it("answer each read with its own key's call made after its writes, each wait bounded", async () => {
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
          const lanes = Array.from({ length: INSTANCES }, () =>
            createFleetFlights(createMemoryPollerStore({ intervalMs: 1_000, server }), {
              maxWaitMs: WAIT_MS,
              registry: new Registry(),
            }),
          );
          // The upstream: each key's value is the count of writes it has answered.
          let writes = 0;
          const reads: Read[] = [];
          const calls = new Map<string, number>();
          for (const [index, current] of steps.entries()) {
            if (current.kind === "write") writes += 1;
            else if (current.kind === "kill") dead.add(current.instance);
            else if (current.kind === "restart") server.restart();
            else {
              // The name sharing.ts gives: the key, the call and the write version read now.
              const name = `flight:${current.key}:v${writes}`;
              const instance = current.instance;
              const read: Read = {
                name,
                key: current.key,
                writesBefore: writes,
                instance,
                startedAt: performance.now(),
                answer: Promise.resolve() as never,
              };
              const call = async (): Promise<UpstreamResponse<unknown>> => {
                read.decidedAt ??= performance.now();
                calls.set(name, (calls.get(name) ?? 0) + 1);
                // The upstream reads when the call begins: what it answers holds these writes.
                const body = { key: current.key, writes };
                // A dead instance's call never answers, nor is it ever published; one that
                // dies while its call is out is as dead.
                if (dead.has(instance)) return new Promise(() => undefined);
                await s.schedule(Promise.resolve(), `call ${index}`);
                if (dead.has(instance)) return new Promise(() => undefined);
                return { status: 200, body, rateLimit: undefined, requestId: undefined };
              };
              const lane = lanes[instance] as (typeof lanes)[number];
              read.answer = lane.fly(name, call, new CallSignal(), () => undefined);
              void read.answer.then(() => {
                read.decidedAt ??= performance.now();
              });
              reads.push(read);
            }
          }
          // A dead instance's own reads never answer (its calls hang); every other read must.
          const live = reads.filter((read) => !dead.has(read.instance));
          const settled = Promise.all(live.map((read) => read.answer));
          // Runs every scheduled call and delivery until every live read has its answer; the
          // bounded waits run on real timers.
          let done = false;
          void settled.finally(() => {
            done = true;
          });
          const until = Date.now() + 5_000;
          // A dead instance's reads too must stop waiting on the fleet (and begin their call).
          while (!done || reads.some((read) => read.decidedAt === undefined)) {
            await s.waitAll();
            await new Promise((resolve) => setTimeout(resolve, 5));
            if (Date.now() > until) throw new Error("a read did not settle");
          }
          for (const read of live) {
            const body = (await read.answer).body as { key: string; writes: number };
            // Never another key's answer, never one read before a write the read came after.
            expect(body.key).toBe(read.key);
            expect(body.writes).toBeGreaterThanOrEqual(read.writesBefore);
          }
          // With nothing lost, one call per flight: the first reader's instance's (each of its
          // reads calls: the gateway coalesces them before they fly), never another's.
          const lossless =
            steps.every((current) => current.kind !== "kill" && current.kind !== "restart") &&
            drops.every((dropped) => !dropped);
          for (const [name, count] of calls) {
            const first = reads.find((read) => read.name === name) as Read;
            const own = reads.filter(
              (read) => read.name === name && read.instance === first.instance,
            );
            if (lossless) expect(count).toBe(own.length);
            else
              expect(count).toBeLessThanOrEqual(reads.filter((read) => read.name === name).length);
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
      { numRuns: 60 },
    );
  });
});
