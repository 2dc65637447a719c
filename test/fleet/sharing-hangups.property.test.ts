import type { ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFleetRedis, type FleetRedis } from "../../src/fleet/redis.ts";
import { createFleetWriteVersion } from "../../src/fleet/write-version.ts";
import { createUpstreamClient, type UpstreamClient } from "../../src/upstream/client.ts";
import { UpstreamUnavailableError } from "../../src/upstream/errors.ts";
import { createKeyHasher } from "../../src/upstream/key-memory.ts";
import { withSharing } from "../../src/upstream/sharing.ts";
import type { FleetWriteVersion } from "../../src/upstream/write-version.ts";
import { type FleetStore, startFleetStore } from "../support/fleet-store.ts";
import { everyCallEnded, watchUnhandledRejections } from "../support/hangups.ts";
import {
  type RecordingUpstream,
  sendJson,
  startRecordingUpstream,
} from "../upstream/recording-upstream.ts";
import { PREFIX, waitUntil } from "./fleet-harness.ts";

// Coalescing in a fleet while readers leave, over interleavings the scheduler picks: readers of
// two resources start, leave, and look at the fleet's write version in a real Redis (each look's
// answer is the scheduler's to deliver), writes elsewhere move that version, and the upstream's
// answers wait for the scheduler too. Whatever the order: no rejection is left unhandled, every
// reader's promise settles, a reader that never left is answered, and every upstream request
// the calls made ends.

const KEY = "Bearer sk_test_acme";

type Step =
  | { kind: "read"; path: "/v1/organization" | "/v1/agents"; leaves: boolean }
  | { kind: "write elsewhere" };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("read" as const),
      path: fc.oneof(
        { weight: 3, arbitrary: fc.constant("/v1/organization" as const) },
        { weight: 1, arbitrary: fc.constant("/v1/agents" as const) },
      ),
      leaves: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant<Step>({ kind: "write elsewhere" }) },
);

let store: FleetStore;
let redis: FleetRedis;
let version: FleetWriteVersion;
let upstream: RecordingUpstream;
let client: UpstreamClient;
let open = 0;
/** Where an arriving upstream request is held: the run's scheduler answers it. */
let onArrival: (answer: () => void) => void = (answer) => answer();

beforeAll(async () => {
  store = await startFleetStore();
  redis = createFleetRedis({ ...store.connection, prefix: PREFIX });
  await waitUntil(() => redis.available(), 5_000, "Redis connection");
  version = createFleetWriteVersion(redis);
  upstream = await startRecordingUpstream((_request, res: ServerResponse) => {
    open += 1;
    res.once("close", () => {
      open -= 1;
    });
    onArrival(() => {
      if (!res.destroyed) sendJson(res, 200, { ok: true });
    });
  });
  client = createUpstreamClient({ baseUrl: upstream.url, maxRetries: 0, timeoutMs: 30_000 });
});

afterAll(async () => {
  await client?.close();
  await upstream?.close();
  await redis?.close();
  await store?.close();
});

describe("coalescing in a fleet while readers leave", () => {
  it("settles every reader and every call, and leaves no rejection unhandled", async () => {
    const rejections = watchUnhandledRejections();
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.scheduler(),
          fc.array(stepArb, { minLength: 2, maxLength: 10 }),
          async (s, steps) => {
            onArrival = (answer) =>
              void s.schedule(Promise.resolve(), "upstream answers").then(answer);
            const scheduledLook: FleetWriteVersion = {
              view: () => version.view(),
              current: () => s.schedule(version.current(), "Redis answers a look"),
              bump: () => version.bump(),
            };
            const sharing = withSharing(client, {
              coalesce: true,
              fleet: scheduledLook,
              keyHash: createKeyHasher("hangups"),
            });
            const outcomes: Array<Promise<string>> = [];
            const stays: boolean[] = [];
            for (const [i, step] of steps.entries()) {
              if (step.kind === "write elsewhere") {
                outcomes.push(
                  s.schedule(Promise.resolve(), `write ${i}`).then(async () => {
                    await version.bump();
                    return "written";
                  }),
                );
                stays.push(false);
                continue;
              }
              const caller = new AbortController();
              if (step.leaves) {
                void s.schedule(Promise.resolve(), `reader ${i} leaves`).then(() => caller.abort());
              }
              stays.push(!step.leaves);
              outcomes.push(
                s.schedule(Promise.resolve(), `reader ${i} starts`).then(() =>
                  sharing
                    .request({
                      method: "GET",
                      path: step.path,
                      authorization: KEY,
                      signal: caller.signal,
                    })
                    .then(
                      (answer) => `answered ${answer.status}`,
                      (error: unknown) =>
                        error instanceof UpstreamUnavailableError ? error.reason : String(error),
                    ),
                ),
              );
            }
            let settled = false;
            const all = Promise.all(outcomes).finally(() => {
              settled = true;
            });
            const until = Date.now() + 10_000;
            while (!settled || s.count() > 0) {
              if (Date.now() > until) throw new Error(`unsettled:\n${s.report().length} tasks`);
              if (s.count() > 0) await s.waitNext(1);
              else await sleep(1);
            }
            const ends = await all;
            for (const [i, end] of ends.entries()) {
              if (stays[i] && end !== "written") expect(end, `reader ${i}`).toBe("answered 200");
            }
            await everyCallEnded(() => open);
            // An unhandled rejection is reported once the microtasks run dry: after a turn.
            await sleep(1);
            expect(rejections.seen).toEqual([]);
          },
        ),
        { numRuns: 60, endOnFailure: true },
      );
    } finally {
      rejections.stop();
    }
  });
});
