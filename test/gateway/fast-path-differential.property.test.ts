import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GatewayOptions } from "../../src/gateway/create-gateway.ts";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import type { Fault } from "../../src/sandbox/server.ts";
import { subgraphSchema } from "../../src/schema/subgraph.ts";
import { manualClock } from "../support/clock.ts";
import { ACME, GLOBEX, type Harness, startHarness } from "./harness.ts";
import { type Answer, type Sent, send } from "./raw-http.ts";

// One statement of what each request gets, whichever path serves it: generated requests go to a
// gateway with the node:http fast path and its prepared lane, and to one with yoga alone (graphql-js,
// nothing compiled); each answer must be the same status, headers and bytes. Each gateway has its
// own sandbox on one frozen clock, so both upstreams count and answer the same calls alike.

const QUERIES = [
  "query Agent($id: ID!) { agent(id: $id) { id name status } }",
  "query Agent($id: ID!) { agent(id: $id) { id name voiceConfigs { language } } }",
  "query Agent($id: ID!) { agent(id: $id) { id primaryLanguage } }",
  "{ organization { name timezone } }",
  "query Agents($first: Int) { agents(first: $first) { edges { node { id name } } } }",
  "query A { organization { name } } query B { __typename }",
  `{ agent(id: "${SEED_IDS.acmeAgent}") { name } document(id: "${SEED_IDS.acmeDocument}") { name } }`,
  "{ nope }",
  "{ agent(",
  "query Agent($id: ID!) { agent(id: $id) { id ...Missing } }",
  `mutation { deleteAgent(id: "agt_acme_nope") { deletedId } }`,
  "{ __typename }",
];

function extraHeaders() {
  return fc.dictionary(
    fc.constantFrom(
      "x-tenant",
      "cache-control",
      "x-forwarded-for",
      "cookie",
      "apollo-require-preflight",
      "x-apollo-operation-name",
      "traceparent",
      "user-agent",
    ),
    fc.oneof(
      fc.constantFrom("no-cache", "yes", "1.2.3.4", "session=abc"),
      fc.stringMatching(/^[\x21-\x7e]{1,24}$/),
    ),
    { maxKeys: 3 },
  );
}

const request = fc.record({
  method: fc.constantFrom("POST", "POST", "POST", "GET"),
  contentType: fc.constantFrom(
    "application/json",
    "application/json",
    "application/json; charset=utf-8",
    "text/plain",
    undefined,
  ),
  accept: fc.constantFrom(
    undefined,
    "*/*",
    "application/json",
    "application/graphql-response+json",
    "application/graphql-response+json, application/json;q=0.9",
    "application/json; charset=utf-16",
    "text/event-stream",
    "text/html",
  ),
  query: fc.constantFrom(...QUERIES),
  operationName: fc.constantFrom(undefined, undefined, "A", "B", "Agent", "Nope"),
  variables: fc.option(
    fc.record(
      {
        id: fc.constantFrom(
          SEED_IDS.acmeAgent,
          SEED_IDS.acmeAgentPaused,
          "agt_acme_missing",
          "agt_globex_001",
          "doc_wrong_prefix",
          "x".repeat(300),
          7,
        ),
        first: fc.constantFrom(1, 3, 0, -1, 500, "two"),
      },
      { requiredKeys: [] },
    ),
    { nil: undefined },
  ),
  key: fc.constantFrom(ACME, ACME, GLOBEX, undefined, "Bearer ", "Bearer sk_test_nobody"),
  // The upstream failing every call of the request, retries included: a request's calls run in
  // parallel, so a fault for only the first few would fall on whichever call came first.
  // Headers no rule of the gateway names today: a rule that reads one must hold on both paths.
  extraHeaders: extraHeaders(),
  upstreamFault: fc.constantFrom<Fault | undefined>(
    undefined,
    undefined,
    undefined,
    { status: 500, times: 1_000 },
    { status: 503, times: 1_000 },
    { status: 400, times: 1_000 },
    { status: 403, times: 1_000 },
    // A 200 of the wrong shape: the gateway's own errors, in the middle of a compiled run.
    { status: 200, times: 1_000, body: { name: "No ID", status: "ACTIVE" } },
    { status: 200, times: 1_000, body: { id: SEED_IDS.acmeAgent, status: "ACTIVE" } },
  ),
});

/** The common case, which the fast path and its lane serve: weighted in, so they are held too. */
const common = fc.record({
  method: fc.constant("POST"),
  contentType: fc.constant("application/json"),
  accept: fc.constantFrom(undefined, "*/*", "application/graphql-response+json"),
  query: fc.constantFrom(QUERIES[0], QUERIES[1], QUERIES[2], QUERIES[3]),
  operationName: fc.constant(undefined),
  variables: fc.constantFrom(
    { id: SEED_IDS.acmeAgent, first: 2 },
    { id: SEED_IDS.acmeAgentPaused, first: 1 },
    { id: "agt_acme_missing", first: 3 },
  ),
  key: fc.constantFrom(ACME, GLOBEX),
  extraHeaders: extraHeaders(),
  upstreamFault: fc.constant<Fault | undefined>(undefined),
});

type Generated = typeof request extends fc.Arbitrary<infer T> ? T : never;
const requests: fc.Arbitrary<Generated> = fc.oneof(
  { arbitrary: request, weight: 2 },
  { arbitrary: common as fc.Arbitrary<Generated>, weight: 1 },
);

/** The request on the wire: the same bytes to both gateways. */
function sentOf(generated: Generated): Sent {
  const headers: Record<string, string> = {
    ...generated.extraHeaders,
    "x-request-id": "differential",
  };
  if (generated.contentType !== undefined) headers["content-type"] = generated.contentType;
  if (generated.accept !== undefined) headers.accept = generated.accept;
  if (generated.key !== undefined) headers.authorization = generated.key;
  const params: Record<string, unknown> = { query: generated.query };
  if (generated.operationName !== undefined) params.operationName = generated.operationName;
  if (generated.variables !== undefined) params.variables = generated.variables;
  if (generated.method === "GET") {
    const search = new URLSearchParams({ query: generated.query });
    if (generated.operationName !== undefined) search.set("operationName", generated.operationName);
    if (generated.variables !== undefined) {
      search.set("variables", JSON.stringify(generated.variables));
    }
    return { method: "GET", path: `/graphql?${search}`, headers };
  }
  return { headers, body: JSON.stringify(params) };
}

/**
 * What differs by design: each sandbox names its answers with its own request ID, and parallel
 * fields' errors come in the order their calls failed (the spec gives their order no meaning).
 */
function comparable(answer: Answer): Answer {
  const body = answer.body.replace(/"requestId":"req_\w+"/g, '"requestId":"req_"');
  return { ...answer, body: withErrorsByPath(body) };
}

function withErrorsByPath(body: string): string {
  // An event stream's results are JSON on its `data:` lines.
  if (/^(event|data): /m.test(body)) {
    return body.replace(/^data: (.*)$/gm, (_line, json: string) => `data: ${errorsByPath(json)}`);
  }
  return errorsByPath(body);
}

function errorsByPath(body: string): string {
  let parsed: { errors?: Array<{ path?: unknown }> };
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  if (!Array.isArray(parsed.errors) || parsed.errors.length < 2) return body;
  const key = (error: { path?: unknown }) => JSON.stringify(error.path ?? null);
  parsed.errors = [...parsed.errors].sort((a, b) => key(a).localeCompare(key(b)));
  return JSON.stringify(parsed);
}

/**
 * The settings the lane is open under (it steps aside for session mode and trusted documents):
 * the plain gateway, and one with the read cache and the subgraph's schema.
 */
const SETTINGS: [string, Partial<GatewayOptions>, number][] = [
  ["plain", {}, 120],
  ["the read cache on, FEDERATION=on", { sharing: { cacheTtlS: 60 }, schema: subgraphSchema }, 60],
];

describe.each(SETTINGS)("the fast path against yoga alone: %s", (_name, settings, numRuns) => {
  let fast: Harness;
  let yoga: Harness;
  let fastPathServed = 0;

  beforeAll(async () => {
    const clock = manualClock();
    const sandbox = { now: clock.now, rateLimit: 100_000, rateWindowSeconds: 86_400 };
    fast = await startHarness({
      sandbox,
      gateway: { ...settings, compileAfter: 1, now: clock.now },
      listen: { fastPath: true, onFastPath: () => fastPathServed++ },
    });
    yoga = await startHarness({
      sandbox,
      gateway: { ...settings, compileAfter: 0, now: clock.now },
      listen: { fastPath: false },
    });
  });
  afterAll(async () => {
    await Promise.all([fast?.close(), yoga?.close()]);
  });

  it("answers every generated request with the same status, headers and bytes", async () => {
    await fc.assert(
      fc.asyncProperty(requests, async (generated) => {
        const sent = sentOf(generated);
        // Twice: the second run of a text is the prepared lane's when it answers.
        for (let run = 0; run < 2; run++) {
          const fault = generated.upstreamFault;
          if (fault) fast.sandbox.injectFault(fault);
          const byFastPath = comparable(await send(fast.url, sent));
          if (fault) yoga.sandbox.injectFault(fault);
          const byYoga = comparable(await send(yoga.url, sent));
          // A fault the request's calls did not take goes with it.
          fast.sandbox.clearFaults();
          yoga.sandbox.clearFaults();
          expect(byFastPath).toEqual(byYoga);
        }
      }),
      { numRuns },
    );
    // The comparison means something only if the fast path and its lane served some of it.
    expect(fastPathServed).toBeGreaterThan(numRuns / 6);
    const lane = await fast.gateway.metrics.preparedAnswers.get();
    expect(lane.values[0]?.value ?? 0).toBeGreaterThan(numRuns / 12);
  });
});
