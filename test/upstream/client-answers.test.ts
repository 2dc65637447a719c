import { describe, expect, it } from "vitest";
import type { UpstreamRequest } from "../../src/upstream/client.ts";
import { clientsPerTest } from "./recording-upstream.ts";

const KEY = "Bearer sk_test_acme_secret";
const GET_AGENT: UpstreamRequest = { method: "GET", path: "/v1/agents/agt_1", authorization: KEY };

const { start } = clientsPerTest({ timeoutMs: 5_000, maxRetries: 0 });

describe("the upstream client reads an answer whole", () => {
  it("joins a body sent in pieces, a character split between two of them", async () => {
    const text = JSON.stringify({ id: "agt_1", name: "Zoë ✓ 📞", notes: "x".repeat(70_000) });
    const bytes = Buffer.from(text, "utf8");
    // Inside "ë": the first piece ends with half of its two bytes.
    const cut = bytes.indexOf(Buffer.from("ë", "utf8")) + 1;
    const { client } = await start(async (_request, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(bytes.subarray(0, cut));
      await new Promise((resolve) => setImmediate(resolve));
      res.write(bytes.subarray(cut, cut + 40_000));
      await new Promise((resolve) => setImmediate(resolve));
      res.end(bytes.subarray(cut + 40_000));
    });
    const answer = await client.request<Record<string, string>>(GET_AGENT);
    expect(answer.body).toEqual(JSON.parse(text));
  });

  it("reads a JSON body that starts with a UTF-8 byte-order mark, as undici's text() does", async () => {
    const { client } = await start((_request, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"id":"agt_1"}')]));
    });
    const answer = await client.request<Record<string, string>>(GET_AGENT);
    expect(answer.body).toEqual({ id: "agt_1" });
  });

  it("never sends a call whose caller gave up while it waited for a connection", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let first: () => void = () => {};
    const firstArrived = new Promise<void>((resolve) => {
      first = resolve;
    });
    const { upstream, client } = await start(
      async (request, res) => {
        if (request.url.endsWith("agt_1")) {
          first();
          await held;
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"id":"x"}');
      },
      { connections: 1 },
    );
    const holding = client.request(GET_AGENT);
    await firstArrived;
    const caller = new AbortController();
    const queued = client
      .request({ ...GET_AGENT, path: "/v1/agents/agt_2", signal: caller.signal })
      .then(
        () => "answered",
        (error: { reason?: string }) => error.reason,
      );
    caller.abort();
    release();
    await holding;
    expect(await queued).toBe("ABORTED");
    // The one connection serves the next call: the given-up one never went out on it.
    await client.request({ ...GET_AGENT, path: "/v1/agents/agt_3" });
    expect(upstream.requests.map((request) => request.url)).toEqual([
      "/v1/agents/agt_1",
      "/v1/agents/agt_3",
    ]);
  });
});
