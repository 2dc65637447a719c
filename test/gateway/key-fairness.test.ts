import type { ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WAIT_MS } from "../support/wait.ts";
import {
  type RecordingUpstream,
  sendJson,
  startRecordingUpstream,
} from "../upstream/recording-upstream.ts";
import { type Harness, startHarness } from "./harness.ts";

// Fairness between keys: a key whose calls hang holds at most its share of the
// upstream connections; another key's calls keep being answered.

const SLOW = "Bearer sk_slow";
// Hanging calls end only when the test answers them, or at this timeout: an operation that
// waited for a hanging key's place would take it. Far above what a busy machine adds.
const UPSTREAM_TIMEOUT_MS = 30_000;
const FAST = "Bearer sk_fast";
const QUERY = "{ organization { name } }";
// Distinct reads: identical ones in flight would share one call (docs/upstream-sharing.md).
const slowQuery = (i: number) => `{ agent(id: "agt_slow_${i}") { id } }`;

let harness: Harness;
let upstream: RecordingUpstream;
const hanging: ServerResponse[] = [];
afterEach(async () => {
  for (const res of hanging.splice(0)) {
    sendJson(res, 200, { id: "org_slow", name: "Slow" });
  }
  await harness.close();
  await upstream.close();
});

/**
 * The fast key's operations, one after another, and the slowest one's time: an operation that
 * waited for a place behind a hanging key would take an upstream timeout.
 */
async function fastAnswers(count: number) {
  const answers: unknown[] = [];
  let slowestSeconds = 0;
  for (let i = 0; i < count; i++) {
    const from = performance.now();
    const answer = await harness.graphql(QUERY, {}, { authorization: FAST });
    slowestSeconds = Math.max(slowestSeconds, (performance.now() - from) / 1000);
    answers.push(answer.body.data);
  }
  return { answers, slowestSeconds };
}

describe("per-key concurrency upstream", () => {
  it("keeps a slow key to its share: 100 hanging calls of one key, another key still answered", async () => {
    let slowInFlight = 0;
    let slowMostInFlight = 0;
    let hang = true;
    upstream = await startRecordingUpstream((request, res) => {
      if (request.headers.authorization === SLOW && hang) {
        slowInFlight += 1;
        slowMostInFlight = Math.max(slowMostInFlight, slowInFlight);
        res.on("close", () => {
          slowInFlight -= 1;
        });
        hanging.push(res);
        return;
      }
      const fast = request.headers.authorization === FAST;
      sendJson(
        res,
        200,
        fast ? { id: "org_fast", name: "Fast" } : { id: "org_slow", name: "Slow" },
      );
    });
    harness = await startHarness({
      upstream: { baseUrl: upstream.url, timeoutMs: UPSTREAM_TIMEOUT_MS, maxRetries: 0 },
      gateway: { bounds: { upstreamConnectionsPerKey: 8, upstreamQueuePerKey: 64 } },
    });
    // 100 operations of the slow key: 8 reach the upstream, 64 wait, 28 are refused at once.
    const slow = Array.from({ length: 100 }, (_, i) =>
      harness.graphql(slowQuery(i), {}, { authorization: SLOW }),
    );
    // Awaited below; a failed assertion before then must not leave them unhandled.
    for (const pending of slow) pending.catch(() => {});
    await vi.waitFor(() => expect(slowInFlight).toBe(8), { timeout: WAIT_MS, interval: 10 });
    // The fast key meanwhile: 20 operations one after another, all answered.
    const { answers: fast, slowestSeconds } = await fastAnswers(20);
    console.info(
      `slow key: ${slowMostInFlight} in flight at most; fast key: slowest answer ${slowestSeconds.toFixed(3)} s`,
    );
    expect(fast).toEqual(Array.from({ length: 20 }, () => ({ organization: { name: "Fast" } })));
    expect(slowMostInFlight).toBe(8);
    // Each answer well inside one upstream timeout: none waited for the slow key.
    expect(slowestSeconds).toBeLessThan(UPSTREAM_TIMEOUT_MS / 2 / 1000);

    // The refused ones were answered at once, RATE_LIMITED, with no upstream call.
    hang = false;
    for (const res of hanging.splice(0)) sendJson(res, 200, { id: "agt_slow", name: "Slow" });
    const answers = await Promise.all(slow);
    const refused = answers.filter(
      (answer) => answer.body.errors?.[0]?.extensions?.code === "RATE_LIMITED",
    );
    expect(refused.length).toBe(28);
    expect(refused[0]?.status).toBe(429);
    expect(refused[0]?.body.errors?.[0]?.extensions).toMatchObject({
      retryAfter: 1,
      reason: "KEY_CONCURRENCY",
    });
    // The rest ran, each in its turn (8 at first, then the 64 queued as places freed).
    const slowRequests = upstream.requests.filter((r) => r.headers.authorization === SLOW);
    expect(slowRequests.length).toBeLessThanOrEqual(72);
  });

  it.each([
    [2, "two keys hang: each holds its share"],
    [4, "four keys hang: a quarter of the pool stays for keys with nothing in flight"],
  ])(
    "keeps a third tenant fast while %i keys hang (%s), with the default settings",
    async (count) => {
      const hangingKeys = Array.from({ length: count }, (_, i) => `Bearer sk_hang_${i}`);
      let inFlight = 0;
      let mostInFlight = 0;
      let hang = true;
      upstream = await startRecordingUpstream((request, res) => {
        if (hangingKeys.includes(request.headers.authorization ?? "") && hang) {
          inFlight += 1;
          mostInFlight = Math.max(mostInFlight, inFlight);
          res.on("close", () => {
            inFlight -= 1;
          });
          hanging.push(res);
          return;
        }
        sendJson(res, 200, { id: "org_fast", name: "Fast" });
      });
      harness = await startHarness({
        upstream: { baseUrl: upstream.url, timeoutMs: UPSTREAM_TIMEOUT_MS, maxRetries: 0 },
      });
      // Each hanging key sends more than a whole pool's worth of distinct reads.
      const slow = hangingKeys.flatMap((authorization) =>
        Array.from({ length: 40 }, (_, i) => harness.graphql(slowQuery(i), {}, { authorization })),
      );
      for (const pending of slow) pending.catch(() => {});
      // Each key takes its share (8) until 24 of the 32 are taken; past that only a key with
      // nothing in flight takes one (the fourth key, if it came last): 16, or 24 to 25.
      const full = Math.min(count * 8, 24);
      const until = Date.now() + 10_000;
      while (inFlight < full && Date.now() < until) await sleep(10);
      expect(inFlight).toBeGreaterThanOrEqual(full);
      const { answers: fast, slowestSeconds } = await fastAnswers(20);
      expect(fast).toEqual(Array.from({ length: 20 }, () => ({ organization: { name: "Fast" } })));
      // Each answer well inside one upstream timeout: none waited for a place.
      expect(slowestSeconds).toBeLessThan(UPSTREAM_TIMEOUT_MS / 2 / 1000);
      expect(mostInFlight).toBeLessThanOrEqual(count === 2 ? 16 : 25);
      hang = false;
      for (const res of hanging.splice(0)) sendJson(res, 200, { id: "agt_slow", name: "Slow" });
      await Promise.all(slow);
    },
  );
});
