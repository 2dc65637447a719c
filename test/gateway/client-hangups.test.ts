import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closedAfterEachTest } from "../support/closing.ts";
import { startHangupUpstream } from "../support/hangup-upstream.ts";
import {
  abortedInAnswer,
  cutRunArb,
  cutsIn,
  everyCallEnded,
  sendAndCut,
  watchUnhandledRejections,
} from "../support/hangups.ts";
import { startHarness } from "./harness.ts";

// Clients hanging up at random points on one gateway, coalescing on: before the body is whole,
// before the answer, while identical reads share one call, during a @defer stream (multipart and
// SSE) and a subscription (SSE, single-connection SSE, graphql-ws). Nothing a client does that
// way may leave a rejection unhandled, an upstream call unsettled, or a call shared with another
// client aborted under it.

const closing = closedAfterEachTest();

describe("clients hanging up on one gateway", () => {
  it("leave it alive, no rejection unhandled and no upstream call behind", async () => {
    let calls = 0;
    // Slow enough that reads meet in flight; varied so calls end at many points.
    const upstream = closing(await startHangupUpstream(() => 4 + (calls++ % 7) * 3));
    const harness = closing(
      await startHarness({
        sandbox: { callIntervalMs: 600_000, callDurationMs: 600_000, rateLimit: 1_000_000 },
        upstream: { baseUrl: upstream.url, maxRetries: 0 },
      }),
    );
    upstream.forwardTo(harness.sandbox.url);
    const rejections = watchUnhandledRejections();
    const cuts = { cut: 0, midAnswer: 0 };
    try {
      await fc.assert(
        fc.asyncProperty(cutRunArb(20, 40), async (run) => {
          const endings = await Promise.all(
            run.cuts.map((cut) => sendAndCut(harness.url, cut, run.togetherMs)),
          );
          const these = cutsIn(endings);
          cuts.cut += these.cut;
          cuts.midAnswer += these.midAnswer;
          await everyCallEnded(upstream.inFlight);
          expect(rejections.seen).toEqual([]);
          expect(endings.filter(abortedInAnswer)).toEqual([]);
        }),
        { numRuns: 12, endOnFailure: true },
      );
    } finally {
      rejections.stop();
    }
    // The runs did cut: a few hundred requests, most before their answer, some mid-stream.
    expect(cuts.cut).toBeGreaterThan(150);
    expect(cuts.midAnswer).toBeGreaterThan(0);
    expect((await harness.graphql("{ organization { name } }")).body.errors).toBeUndefined();
  });
});
