import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { startRecordingUpstream } from "../upstream/recording-upstream.ts";
import { ACME, FAST_PATH, type Harness, startHarness } from "./harness.ts";
import { type Answer, type Sent, send } from "./raw-http.ts";

// The same requests to a gateway with the node:http fast path and to one without it (yoga's own
// adapter): each answer must be the same, byte for byte, but for its Date. Each gateway has its
// own sandbox, so the rate-limit figures of both count the same requests.
const MAX_REQUEST_BYTES = 4096;
const RATE_LIMIT = 5;

const json = (extra: Record<string, string> = {}) => ({
  "content-type": "application/json",
  authorization: ACME,
  "x-request-id": "fast-path-test",
  ...extra,
});
const post = (params: unknown, extra?: Record<string, string>): Sent => ({
  headers: json(extra),
  body: JSON.stringify(params),
});
const AGENT = `{ agent(id: "${SEED_IDS.acmeAgent}") { id name status greeting } }`;
const TWO_ROOT_FIELDS = `{
  agent(id: "${SEED_IDS.acmeAgent}") { name }
  document(id: "${SEED_IDS.acmeDocument}") { name }
}`;

/** Each request, and whether the fast path takes it (everything else is yoga's, unread or read). */
const CASES: Array<[string, Sent, boolean]> = [
  ["a query that succeeds", post({ query: AGENT }), true],
  [
    "charset and a JSON Accept",
    post(
      { query: AGENT },
      { accept: "application/json", "content-type": "application/json; charset=utf-8" },
    ),
    true,
  ],
  [
    "a variable of the wrong type",
    post({ query: "query($id: ID!) { agent(id: $id) { id } }", variables: { id: { no: 1 } } }),
    true,
  ],
  ["a missing variable", post({ query: "query($id: ID!) { agent(id: $id) { id } }" }), true],
  ["a validation error", post({ query: "{ nope }" }), true],
  ["an operation over the cost limit", post({ query: TWO_ROOT_FIELDS }), true],
  ["an unknown operation name", post({ query: AGENT, operationName: "Nope" }), false],
  [
    "a named operation",
    post({ query: `query A ${AGENT} query B { __typename }`, operationName: "B" }),
    true,
  ],
  [
    "no key",
    {
      headers: { "content-type": "application/json", "x-request-id": "no-key" },
      body: JSON.stringify({ query: AGENT }),
    },
    true,
  ],
  [
    "a generated request ID",
    {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ nope }" }),
    },
    true,
  ],
  [
    "a mutation refused upstream",
    post({ query: `mutation { deleteAgent(id: "agt_nope") { deletedId } }` }),
    true,
  ],
  ["malformed JSON", { headers: json(), body: "{bad" }, false],
  ["a JSON array (batch)", post([{ query: AGENT }]), false],
  [
    "extensions (a persisted-query hash)",
    post({
      query: AGENT,
      extensions: { persistedQuery: { version: 1, sha256Hash: "0".repeat(64) } },
    }),
    false,
  ],
  ["a syntax error", post({ query: "{ agent(" }), false],
  [
    "a body over MAX_REQUEST_BYTES",
    post({ query: `{ __typename }${" ".repeat(MAX_REQUEST_BYTES)}` }),
    false,
  ],
  ["a chunked body", { ...post({ query: AGENT }), chunked: true }, false],
  ["an Origin (CORS)", post({ query: AGENT }, { origin: "https://app.example" }), false],
  ["an SSE Accept", post({ query: "{ __typename }" }, { accept: "text/event-stream" }), false],
  ["a form content type", { headers: json({ "content-type": "text/plain" }), body: "{}" }, false],
  [
    "GET",
    {
      method: "GET",
      path: `/graphql?query=${encodeURIComponent(AGENT)}`,
      headers: { authorization: ACME, "x-request-id": "get" },
    },
    false,
  ],
  // Last: the sandbox's limit is reached, then the upstream's 429 and its figures come through.
  ["rate-limited", post({ query: AGENT }), true],
  ["rate-limited again", post({ query: AGENT }), true],
];

let fast: Harness;
let yoga: Harness;
let served = 0;

beforeAll(async () => {
  const options = {
    sandbox: { rateLimit: RATE_LIMIT, rateWindowSeconds: 86_400 },
    gateway: { maxRequestBytes: MAX_REQUEST_BYTES, maxUpstreamCalls: 1 },
  };
  fast = await startHarness({ ...options, listen: { fastPath: true, onFastPath: () => served++ } });
  yoga = await startHarness({ ...options, listen: { fastPath: false } });
});
afterAll(async () => {
  await Promise.all([fast?.close(), yoga?.close()]);
});

/**
 * Generated request IDs (the gateway's, and each sandbox's own in its error answers) differ by
 * nature: the same shape is all that can match.
 */
function withoutGeneratedId(answer: Answer): Answer {
  const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
  return {
    ...answer,
    headers: answer.headers.map((line) => line.replace(uuid, "<uuid>")),
    body: answer.body
      .replace(uuid, "<uuid>")
      .replace(/"requestId":"req_\w+"/g, '"requestId":"req_"'),
  };
}

/** Retry-After counts seconds to a reset: two answers a moment apart may differ by one. */
function retryAfterOf(answer: Answer): number | undefined {
  const line = answer.headers.find((header) => header.toLowerCase().startsWith("retry-after:"));
  return line === undefined ? undefined : Number(line.split(":")[1]);
}

function withoutRetryAfter(answer: Answer): Answer {
  return {
    ...answer,
    headers: answer.headers.map((line) => line.replace(/^(retry-after): \d+$/i, "$1: N")),
    body: answer.body.replace(/"retryAfter":\d+/g, '"retryAfter":N'),
  };
}

describe("the fast path answers as yoga does", () => {
  it.each(CASES)("%s", async (name, sent, taken) => {
    const before = served;
    const fromFast = await send(fast.url, sent);
    expect(served - before).toBe(taken ? 1 : 0);
    const fromYoga = await send(yoga.url, sent);
    expect(withoutRetryAfter(withoutGeneratedId(fromFast))).toEqual(
      withoutRetryAfter(withoutGeneratedId(fromYoga)),
    );
    const [a, b] = [retryAfterOf(fromFast), retryAfterOf(fromYoga)];
    if (a !== undefined || b !== undefined)
      expect(Math.abs((a ?? -9) - (b ?? 9))).toBeLessThanOrEqual(1);
    if (name.startsWith("rate-limited")) expect(fromFast.status).toBe(429);
    // Same upstream traffic, request for request.
    expect(fast.takeUpstreamRequests()).toEqual(yoga.takeUpstreamRequests());
  });

  it("counted the same operations in both gateways' metrics", async () => {
    const metrics = async (h: Harness) =>
      (await send(h.url, { method: "GET", path: "/metrics" })).body
        .split("\n")
        .filter((line) => line.startsWith("voicegraph_operations_total"));
    const [a, b] = [await metrics(fast), await metrics(yoga)];
    expect(a.length).toBeGreaterThan(0);
    expect(a).toEqual(b);
  });
});

describe("this project's gateways", () => {
  it("take the path GATEWAY_FAST_PATH names (gateway:yoga-only runs every test through yoga)", async () => {
    let served = 0;
    const harness = await startHarness({ listen: { onFastPath: () => served++ } });
    try {
      const response = await harness.graphql("{ organization { name } }");
      expect(response.body.data).toEqual({ organization: { name: "Acme Health" } });
      expect(served).toBe(FAST_PATH ? 1 : 0);
      expect(process.env.GATEWAY_FAST_PATH).toBe(FAST_PATH ? "on" : "off");
    } finally {
      await harness.close();
    }
  });
});

describe("a fast-path request's abort signal", () => {
  const closing = closedAfterEachTest();

  it("aborts the operation's upstream call when the client goes away, as yoga's does", async () => {
    const held: ServerResponse[] = [];
    let closedUnanswered = 0;
    const upstream = closing(
      await startRecordingUpstream((_request, res) => {
        res.on("close", () => {
          if (!res.writableEnded) closedUnanswered += 1;
        });
        held.push(res);
      }),
    );
    let servedHere = 0;
    // A long upstream timeout and no retry: only the client's going away ends the call early.
    const harness = closing(
      await startHarness({
        upstream: { baseUrl: upstream.url, timeoutMs: 10_000, maxRetries: 0 },
        listen: { fastPath: true, onFastPath: () => servedHere++ },
      }),
    );
    const client = new AbortController();
    const pending = fetch(`${harness.url}/graphql`, {
      method: "POST",
      signal: client.signal,
      headers: { "content-type": "application/json", authorization: ACME },
      body: JSON.stringify({ query: "{ organization { name } }" }),
    }).catch((error: unknown) => error);
    await vi.waitFor(() => expect(upstream.requests).toHaveLength(1), {
      timeout: 5_000,
      interval: 10,
    });
    expect(servedHere).toBe(1);
    expect(closedUnanswered).toBe(0);

    client.abort();

    expect(await pending).toMatchObject({ name: "AbortError" });
    await vi.waitFor(() => expect(closedUnanswered).toBe(1), { timeout: 5_000, interval: 10 });
    expect(held).toHaveLength(1);
  });
});
