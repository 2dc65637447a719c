import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createMemoryPollerStore, MemoryPollerServer } from "../../src/fleet/poller-store.ts";
import { LiveHub } from "../../src/gateway/live/live-hub.ts";
import { requestKeyOf } from "../../src/gateway/live/live-reads.ts";
import type { UpstreamClient, UpstreamResponse } from "../../src/upstream/client.ts";
import { createKeyHasher } from "../../src/upstream/key-memory.ts";

// The one poller protocol (lease, mark, epoch, hand-over) as a fleet runs it: several hubs share
// one store server, fast-check's scheduler decides when each upstream answer and each published
// message arrives, messages are dropped, the store restarts empty, an owner dies. Whatever the
// interleaving, every surviving subscriber ends with the newest answer and never goes back.

const INTERVAL_MS = 8;
const KEY = "Bearer sk_model";
const TEMPLATE = { path: "/v1/agents/agt_model" };
const REQUEST_KEY = requestKeyOf(TEMPLATE);

type Event =
  | { kind: "change"; afterMs: number }
  | { kind: "restart"; afterMs: number }
  | { kind: "drop"; afterMs: number; on: boolean }
  | { kind: "kill"; afterMs: number; instance: number };

const eventArb: fc.Arbitrary<Event> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("change" as const),
      afterMs: fc.integer({ min: 0, max: 30 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("restart" as const),
      afterMs: fc.integer({ min: 0, max: 30 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("drop" as const),
      afterMs: fc.integer({ min: 0, max: 30 }),
      on: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("kill" as const),
      afterMs: fc.integer({ min: 0, max: 30 }),
      instance: fc.integer({ min: 0, max: 2 }),
    }),
  },
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the live poller protocol, over a modelled fleet", () => {
  it("brings every subscriber to the newest answer and never back, whatever the interleaving", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(eventArb, { minLength: 1, maxLength: 12 }),
        async (s, events) => {
          const server = new MemoryPollerServer();
          let value = 0;
          let dropping = false;
          server.deliver = (send) => {
            if (dropping) return;
            void s.schedule(Promise.resolve()).then(send);
          };
          const upstream: UpstreamClient = {
            // The upstream answers what it held when the read reached it; the answer's arrival
            // is the scheduler's to choose.
            request<T>() {
              const body = { value } as T;
              const answer: UpstreamResponse<T> = {
                status: 200,
                body,
                rateLimit: undefined,
                requestId: undefined,
              };
              return s.schedule(Promise.resolve(answer));
            },
            isReachable: async () => true,
            close: async () => undefined,
          };
          const keyHash = createKeyHasher("model");
          const seen: number[][] = [[], [], []];
          const alive = [true, true, true];
          const hubs = [0, 1, 2].map((instance) => {
            const hub = new LiveHub({
              upstream,
              keyHash,
              intervalMs: INTERVAL_MS,
              rateLimitShare: 1,
              store: createMemoryPollerStore({
                intervalMs: INTERVAL_MS,
                server,
                instanceId: `instance-${instance}`,
              }),
            });
            const hash = keyHash(KEY);
            const record = () => {
              const answer = hub.answer(hash, REQUEST_KEY);
              if (answer && "body" in answer) {
                seen[instance]?.push((answer.body as { value: number }).value);
              }
            };
            hub.watch(KEY, REQUEST_KEY, TEMPLATE, undefined, {
              changed: record,
              ended: () => undefined,
            });
            return hub;
          });
          let pumping = true;
          const pump = (async () => {
            while (pumping) {
              if (s.count() > 0) await s.waitOne();
              await sleep(s.count() > 0 ? 0 : 1);
            }
          })();
          try {
            for (const event of events) {
              await sleep(event.afterMs);
              if (event.kind === "change") value += 1;
              else if (event.kind === "restart") server.restart();
              else if (event.kind === "drop") dropping = event.on;
              else if (alive.filter(Boolean).length > 1 && alive[event.instance]) {
                alive[event.instance] = false;
                hubs[event.instance]?.close();
              }
            }
            dropping = false;
            const newest = value;
            // Settled: a lease's life, then a few intervals for the new owner to read and publish.
            const settled = async () => {
              for (let waited = 0; waited < 2_000; waited += 10) {
                const done = hubs.every((hub, instance) => {
                  if (!alive[instance]) return true;
                  const answer = hub.answer(keyHash(KEY), REQUEST_KEY);
                  return (
                    answer !== undefined &&
                    "body" in answer &&
                    (answer.body as { value: number }).value === newest
                  );
                });
                if (done) return true;
                await sleep(10);
              }
              return false;
            };
            expect(await settled()).toBe(true);
            for (const [instance, values] of seen.entries()) {
              if (!alive[instance]) continue;
              for (let i = 1; i < values.length; i++) {
                expect(values[i]).toBeGreaterThan(values[i - 1] as number);
              }
            }
          } finally {
            pumping = false;
            await pump;
            for (const [instance, hub] of hubs.entries()) if (alive[instance]) hub.close();
            await s.waitAll();
          }
        },
      ),
      { numRuns: 25, endOnFailure: true },
    );
  });

  it("delivers the first update after a quiet spell longer than the keep time at once", async () => {
    // The store's clock: moved past the keep time in one step, as a quiet minute would.
    let skew = 0;
    const server = new MemoryPollerServer({ now: () => Date.now() + skew });
    let value = 0;
    const upstream: UpstreamClient = {
      async request<T>() {
        return { status: 200, body: { value } as T, rateLimit: undefined, requestId: undefined };
      },
      isReachable: async () => true,
      close: async () => undefined,
    };
    const keyHash = createKeyHasher("model");
    const hubs = [0, 1].map(
      (instance) =>
        new LiveHub({
          upstream,
          keyHash,
          intervalMs: 10,
          rateLimitShare: 1,
          store: createMemoryPollerStore({
            intervalMs: 10,
            server,
            instanceId: `quiet-${instance}`,
          }),
        }),
    );
    const valueAt = (hub: LiveHub) => {
      const answer = hub.answer(keyHash(KEY), REQUEST_KEY);
      return answer && "body" in answer ? (answer.body as { value: number }).value : undefined;
    };
    const reaches = async (expected: number, withinMs: number) => {
      const started = Date.now();
      while (Date.now() - started < withinMs) {
        if (hubs.every((hub) => valueAt(hub) === expected)) return true;
        await sleep(5);
      }
      return false;
    };
    try {
      for (const hub of hubs) {
        hub.watch(KEY, REQUEST_KEY, TEMPLATE, undefined, {
          changed: () => undefined,
          ended: () => undefined,
        });
      }
      expect(await reaches(0, 2_000)).toBe(true);
      // A long life first: the counter climbs well past anything a new epoch starts from.
      await sleep(800);
      skew += 5_000;
      value = 1;
      // The new owner reads within a lease and an interval; the follower must not wait for the
      // new counter to climb past the old one.
      expect(await reaches(1, 600)).toBe(true);
    } finally {
      for (const hub of hubs) hub.close();
    }
  });
});
