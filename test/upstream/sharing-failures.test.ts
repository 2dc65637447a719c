import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { UpstreamUnavailableError } from "../../src/upstream/errors.ts";
import { withKeyConcurrency } from "../../src/upstream/key-concurrency.ts";
import { createKeyHasher } from "../../src/upstream/key-memory.ts";
import { withSharing } from "../../src/upstream/sharing.ts";
import { clientsPerTest, sendJson } from "./recording-upstream.ts";

const KEY = "Bearer sk_test_acme";
const { start } = clientsPerTest({ timeoutMs: 2_000 });

describe("the sharing and per-key layers over the client", () => {
  it.each([true, false])(
    "fail a call they cannot send with its promise, never a throw, and keep its place (coalescing %s)",
    async (coalesce) => {
      const { upstream, client } = await start((_req, res) => sendJson(res, 200, { ok: true }));
      const keyHash = createKeyHasher();
      // One place for the key: a place the failed call kept would hold back the next one.
      const bounds = { upstreamConnectionsPerKey: 1, upstreamQueuePerKey: 0 };
      const stack = withSharing(withKeyConcurrency(client, bounds, keyHash), {
        coalesce,
        keyHash,
      });
      let sent: Promise<unknown> | undefined;
      expect(() => {
        // A lone surrogate cannot be percent-encoded: the call fails before it is sent.
        sent = stack.request({
          method: "GET",
          path: "/v1/agents",
          query: { search: "\uD800" },
          authorization: KEY,
        });
      }).not.toThrow();
      await expect(sent).rejects.toBeInstanceOf(URIError);
      const answered = await stack.request({
        method: "GET",
        path: "/v1/organization",
        authorization: KEY,
      });
      expect(answered.body).toEqual({ ok: true });
      expect(upstream.requests.map((request) => request.url)).toEqual(["/v1/organization"]);
    },
  );

  it("end a shared call when its last waiter leaves, and not before", async () => {
    // An upstream that never answers, and no timeout within the test: only a waiter's leaving
    // can end the call, by closing its socket.
    const { upstream, client } = await start(() => undefined, { timeoutMs: 60_000 });
    const keyHash = createKeyHasher();
    const bounds = { upstreamConnectionsPerKey: 4, upstreamQueuePerKey: 4 };
    const stack = withSharing(withKeyConcurrency(client, bounds, keyHash), {
      coalesce: true,
      keyHash,
    });
    const first = new AbortController();
    const second = new AbortController();
    const read = (signal: AbortSignal) =>
      stack.request({ method: "GET", path: "/v1/organization", authorization: KEY, signal });
    const waits = [read(first.signal), read(second.signal)].map((wait) =>
      wait.then(
        () => "answered",
        (error: unknown) => (error instanceof UpstreamUnavailableError ? error.reason : error),
      ),
    );
    await expect.poll(() => upstream.requests.length).toBe(1);
    first.abort();
    expect(await waits[0]).toBe("ABORTED");
    // A window for the call's socket to close, were one waiter's leaving to end it.
    await sleep(50);
    expect(upstream.closedConnectionCount()).toBe(0);
    second.abort();
    expect(await waits[1]).toBe("ABORTED");
    await expect.poll(() => upstream.closedConnectionCount(), { timeout: 5_000 }).toBe(1);
    expect(upstream.requests).toHaveLength(1);
  });
});
