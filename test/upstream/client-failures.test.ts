import { describe, expect, it } from "vitest";
import type { UpstreamRequest } from "../../src/upstream/client.ts";
import { UpstreamUnavailableError } from "../../src/upstream/errors.ts";
import { clientsPerTest, closedPortUrl, waitFor } from "./recording-upstream.ts";

const KEY = "Bearer sk_test_acme_secret";
const GET_AGENT: UpstreamRequest = { method: "GET", path: "/v1/agents/agt_1", authorization: KEY };

const { start, startUpstream, createClient } = clientsPerTest({ timeoutMs: 2_000, maxRetries: 0 });

function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected the request to fail"),
    (error: unknown) => error,
  );
}

/** Message and cause messages, where a leaked header would show. */
function allText(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error; e = e.cause)
    parts.push(e.message, e.stack ?? "");
  return parts.join("\n");
}

describe("upstream transport failures", () => {
  it("refuses a body larger than maxResponseBytes as INVALID_RESPONSE", async () => {
    const upstream = await startUpstream((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ items: "x".repeat(4096) }));
    });
    const client = createClient({ baseUrl: upstream.url, maxRetries: 0, maxResponseBytes: 1024 });
    const error = await failure(client.request(GET_AGENT));
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).toMatchObject({ reason: "INVALID_RESPONSE" });
  });

  it("reports a refused connection as CONNECTION_REFUSED", async () => {
    const client = createClient({ baseUrl: await closedPortUrl(), maxRetries: 0 });

    const error = await failure(client.request(GET_AGENT));

    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).toMatchObject({ reason: "CONNECTION_REFUSED" });
    expect(allText(error)).not.toContain("sk_test");
  });

  it("reports a socket destroyed by the server as CONNECTION_RESET", async () => {
    const { upstream, client } = await start((_req, res) => {
      res.socket?.destroy();
    });

    const error = await failure(client.request(GET_AGENT));

    expect(error).toMatchObject({ name: "UpstreamUnavailableError", reason: "CONNECTION_RESET" });
    expect(upstream.requests).toHaveLength(1);
    expect(allText(error)).not.toContain("sk_test");
  });

  it("reports a server that never answers as TIMEOUT, once timeoutMs has passed", async () => {
    const { client } = await start(() => {}, { timeoutMs: 200 });
    const started = Date.now();

    const error = await failure(client.request(GET_AGENT));

    const elapsed = Date.now() - started;
    expect(error).toMatchObject({ name: "UpstreamUnavailableError", reason: "TIMEOUT" });
    // Not before its bound; how long after it is the machine's (a hang is the test timeout's).
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(allText(error)).not.toContain("sk_test");
  });

  it("reports a body that stops half way as TIMEOUT", async () => {
    const { client } = await start(
      (_req, res) => {
        res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
        res.write('{"id":"agt_1",');
      },
      { timeoutMs: 200 },
    );

    const error = await failure(client.request(GET_AGENT));

    expect(error).toMatchObject({ name: "UpstreamUnavailableError", reason: "TIMEOUT" });
  });

  it("aborts the upstream call when the caller's signal fires, closing the connection", async () => {
    let arrived: () => void = () => {};
    const requestArrived = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const { upstream, client } = await start(() => arrived());
    const controller = new AbortController();

    const pending = failure(client.request({ ...GET_AGENT, signal: controller.signal }));
    await requestArrived;
    controller.abort();
    const error = await pending;

    expect(error).toMatchObject({ name: "UpstreamUnavailableError", reason: "ABORTED" });
    expect(allText(error)).not.toContain("sk_test");
    await waitFor(() => upstream.closedConnectionCount() === 1);
  });

  it("does not call the upstream at all when the signal has already fired", async () => {
    const { upstream, client } = await start(() => {});

    const error = await failure(client.request({ ...GET_AGENT, signal: AbortSignal.abort() }));

    expect(error).toMatchObject({ reason: "ABORTED" });
    expect(upstream.requests).toHaveLength(0);
  });
});
