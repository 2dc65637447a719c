import { setTimeout as sleep } from "node:timers/promises";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createFleetFlights } from "../../src/fleet/flights.ts";
import {
  createMemoryPollerStore,
  MemoryPollerServer,
  type PollerStore,
} from "../../src/fleet/poller-store.ts";
import { UpstreamUnavailableError } from "../../src/upstream/errors.ts";
import { createKeyHasher } from "../../src/upstream/key-memory.ts";
import { withSharing } from "../../src/upstream/sharing.ts";
import type { FleetWriteVersion } from "../../src/upstream/write-version.ts";
import { watchUnhandledRejections } from "../support/hangups.ts";
import { clientsPerTest, sendJson } from "./recording-upstream.ts";

// Coalescing when a client has gone: nothing is begun for it, and a call its leaving aborted is
// not one a newcomer joins.

const KEY = "Bearer sk_test_acme";
const { start } = clientsPerTest({ timeoutMs: 60_000 });
const reasonOf = (error: unknown) =>
  error instanceof UpstreamUnavailableError ? error.reason : error;

describe("coalescing, when a client has gone", () => {
  it("begins no call for a read whose caller already left, and leaves no rejection", async () => {
    const { upstream, client } = await start((_req, res) => sendJson(res, 200, { ok: true }));
    const stack = withSharing(client, { coalesce: true, keyHash: createKeyHasher() });
    const gone = new AbortController();
    gone.abort();
    const rejections = watchUnhandledRejections();
    try {
      const read = stack.request({
        method: "GET",
        path: "/v1/organization",
        authorization: KEY,
        signal: gone.signal,
      });
      await expect(read.catch(reasonOf)).resolves.toBe("ABORTED");
      // A window for a call begun anyway to reach the upstream, or to reject unheard.
      await sleep(50);
      expect(rejections.seen).toEqual([]);
      expect(upstream.connectionCount()).toBe(0);
    } finally {
      rejections.stop();
    }
  });

  it("does not join a call whose last waiter just left: a newcomer makes its own", async () => {
    // The first request is never answered (only its waiter's leaving ends it); later ones are.
    let seen = 0;
    const { upstream, client } = await start((_req, res) => {
      seen += 1;
      if (seen > 1) sendJson(res, 200, { ok: true });
    });
    const stack = withSharing(client, { coalesce: true, keyHash: createKeyHasher() });
    const read = (signal?: AbortSignal) =>
      stack.request({ method: "GET", path: "/v1/organization", authorization: KEY, signal });
    const leaving = new AbortController();
    const first = read(leaving.signal).catch(reasonOf);
    await expect.poll(() => upstream.requests.length).toBe(1);
    leaving.abort();
    // In the same turn, before the aborted call has settled: the newcomer's own call answers.
    const newcomer = read();
    expect(await first).toBe("ABORTED");
    await expect(newcomer.then((answer) => answer.body)).resolves.toEqual({ ok: true });
    expect(upstream.requests).toHaveLength(2);
  });
});

describe("a fleet flight, when its readers have gone", () => {
  it("takes no flight's lease and begins no call once every reader left while it was named", async () => {
    const { upstream, client } = await start((_req, res) => sendJson(res, 200, { ok: true }));
    const server = new MemoryPollerServer();
    const store = createMemoryPollerStore({ intervalMs: 1_000, server });
    let leases = 0;
    const counted: PollerStore = {
      ...store,
      flight: (name, leaseMs) => {
        leases += 1;
        return store.flight(name, leaseMs);
      },
    };
    // The write version answers only when the test says: the reader leaves meanwhile.
    let answer: (token: string) => void = () => undefined;
    const version: FleetWriteVersion = {
      view: () => undefined,
      current: () => new Promise((resolve) => (answer = resolve)),
      bump: async () => undefined,
    };
    const stack = withSharing(client, {
      coalesce: true,
      keyHash: createKeyHasher(),
      fleet: version,
      flights: createFleetFlights(counted, { maxWaitMs: 1_000, registry: new Registry() }),
    });
    const rejections = watchUnhandledRejections();
    try {
      const leaving = new AbortController();
      const read = stack.request({
        method: "GET",
        path: "/v1/organization",
        authorization: KEY,
        signal: leaving.signal,
      });
      leaving.abort();
      expect(await read.catch(reasonOf)).toBe("ABORTED");
      answer("a-write-version");
      await sleep(50);
      expect(leases).toBe(0);
      expect(upstream.connectionCount()).toBe(0);
      expect(rejections.seen).toEqual([]);
    } finally {
      rejections.stop();
    }
  });
});
