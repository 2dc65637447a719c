import fc from "fast-check";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createFleetFlights } from "../../src/fleet/flights.ts";
import { createMemoryPollerStore, MemoryPollerServer } from "../../src/fleet/poller-store.ts";
import { CallSignal } from "../../src/upstream/call-signal.ts";
import type { UpstreamResponse } from "../../src/upstream/client.ts";

// Fleet flights over the in-process pollers' store, the model every store follows: instances
// fly reads of two keys while writes move the write version, an owner may die mid-call, and
// fast-check's scheduler decides when each call answers and when (or whether) each published
// answer reaches each instance.

const INSTANCES = 3;
const WAIT_MS = 50;

// Mostly reads, so flights have waiters; now and then a write or an owner's death.
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
);
/** Whether each published answer is lost on its way (most arrive, late or soon). */
const drops = fc.array(fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, fc.constant(true)), {
  minLength: 1,
  maxLength: 8,
});

describe("fleet flights under a scheduler", () => {
  it("answer each read with its own key's call at its write version, and always settle", async () => {
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
          let version = 0;
          const calls = new Map<string, number>();
          const reads: Array<{
            name: string;
            owner: number;
            answer: Promise<UpstreamResponse<unknown>>;
          }> = [];
          for (const [index, current] of steps.entries()) {
            if (current.kind === "write") version += 1;
            else if (current.kind === "kill") dead.add(current.instance);
            else {
              const name = `flight:${current.key}:v${version}`;
              const owner = current.instance;
              const call = async (): Promise<UpstreamResponse<unknown>> => {
                calls.set(name, (calls.get(name) ?? 0) + 1);
                // A dead instance's call never answers; it never publishes either.
                if (dead.has(owner)) return new Promise(() => undefined);
                await s.schedule(Promise.resolve(), `call ${index}`);
                return { status: 200, body: { name }, rateLimit: undefined, requestId: undefined };
              };
              const lane = lanes[owner] as (typeof lanes)[number];
              const answer = lane.fly(name, call, new CallSignal(), () => undefined);
              reads.push({ name, owner, answer });
            }
          }
          // A dead instance's own reads never answer (its calls hang); every other read must.
          const live = reads.filter((read) => !dead.has(read.owner));
          const settled = Promise.all(live.map((read) => read.answer));
          // Runs every scheduled call and delivery until every live read has its answer; the
          // bounded waits run on real timers.
          let done = false;
          void settled.finally(() => {
            done = true;
          });
          const until = Date.now() + 5_000;
          while (!done) {
            await s.waitAll();
            await new Promise((resolve) => setTimeout(resolve, 5));
            if (Date.now() > until) throw new Error("a read did not settle");
          }
          for (const read of live) expect((await read.answer).body).toEqual({ name: read.name });
          const names = new Set(reads.map((read) => read.name));
          for (const name of names) {
            const asked = reads.filter((read) => read.name === name).length;
            expect(calls.get(name) ?? 0).toBeLessThanOrEqual(asked);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
