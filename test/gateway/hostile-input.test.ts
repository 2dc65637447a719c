import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { sendJson, startRecordingUpstream } from "../upstream/recording-upstream.ts";
import { ACME, GATEWAY_REQUEST_ID, type Harness, startHarness, takeRequestIds } from "./harness.ts";

const LONE_SURROGATE = "agt_\ud800x";

/** `depth` objects nested in one another, built without recursion. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 0; level < depth; level++) value = { a: value };
  return value;
}

describe("input the gateway judges alone", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(() => harness.close());
  afterEach(() => {
    harness.takeUpstreamRequests();
  });

  it.each([
    ["an ID", "query ($v: ID!) { agent(id: $v) { id } }", LONE_SURROGATE],
    [
      "filter.search",
      "query ($v: String) { conversations(filter: { search: $v }) { totalCount } }",
      "call \udc00 back",
    ],
    ["a node ID", "query ($v: ID!) { node(id: $v) { id } }", "\udfff"],
  ])(
    "refuses a lone surrogate in %s as BAD_USER_INPUT with no upstream call",
    async (_what, query, value) => {
      const response = await harness.graphql(query, { v: value });
      expect(response.status).toBe(400);
      expect(response.body.data).toBeUndefined();
      expect(response.body.errors).toEqual([
        {
          message: "$v is not well-formed Unicode (it holds a lone surrogate).",
          extensions: {
            code: "BAD_USER_INPUT",
            requestId: GATEWAY_REQUEST_ID,
            argument: "$v",
            http: { status: 400 },
          },
        },
      ]);
      expect(harness.takeUpstreamRequests()).toEqual([]);
    },
  );

  it("names the last ill-formed variable, whether the others are scalars or objects", async () => {
    const query = `query ($a: ID!, $b: ID!, $c: ConversationFilter) {
      agent(id: $a) { id } other: agent(id: $b) { id } conversations(filter: $c) { totalCount }
    }`;
    const flat = await harness.graphql(query, { a: LONE_SURROGATE, b: LONE_SURROGATE });
    expect(flat.body.errors?.[0]?.extensions?.argument).toBe("$b");
    const mixed = await harness.graphql(query, {
      a: LONE_SURROGATE,
      b: LONE_SURROGATE,
      c: { search: "\udc00" },
    });
    expect(mixed.body.errors?.[0]?.extensions?.argument).toBe("$c.search");
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("refuses a lone surrogate in the document itself as a syntax error", async () => {
    const response = await harness.graphql(`{ agent(id: "agt_\ud800") { id } }`);
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.message).toMatch(/^Syntax Error: Invalid character/);
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("refuses metadata nested thousands deep in a variable, naming where", async () => {
    // Written by hand: JSON.stringify itself runs out of stack on such a value.
    const metadata = `${'{"a":'.repeat(5_000)}{}${"}".repeat(5_000)}`;
    const query =
      'mutation ($input: UpdateAgentInput!) { updateAgent(id: "agt_acme_reception", input: $input) { agent { id } } }';
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: ACME },
      body: `{"query":${JSON.stringify(query)},"variables":{"input":{"metadata":${metadata}}}}`,
    });
    const body = (await response.json()) as {
      errors?: Array<{ extensions?: Record<string, unknown> }>;
    };
    takeRequestIds(body, response.headers);
    // A request error answered in plain JSON (no Accept): 200, as GraphQL over HTTP asks.
    expect(response.status).toBe(200);
    expect(body.errors).toEqual([
      {
        message: `$input.metadata${".a".repeat(31)} nests objects and lists deeper than 32 levels.`,
        extensions: {
          code: "BAD_USER_INPUT",
          requestId: GATEWAY_REQUEST_ID,
          argument: `$input.metadata${".a".repeat(31)}`,
        },
      },
    ]);
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("refuses an inline value nested deeper than the bound, each time the document comes", async () => {
    const deep = `${"{ a: ".repeat(40)}1${" }".repeat(40)}`;
    const document = `mutation { updateAgent(id: "agt_acme_reception", input: { metadata: ${deep} }) { agent { id } } }`;
    // The verdict is kept per parsed document: the second request meets the cached one.
    for (const _ of [1, 2]) {
      const response = await harness.graphql(document);
      expect(response.status).toBe(400);
      // Named by its argument's path, as a variable is by its own.
      expect(response.body.errors?.[0]).toMatchObject({
        message: `input.metadata${".a".repeat(31)} nests objects and lists deeper than 32 levels.`,
        extensions: { code: "BAD_USER_INPUT", argument: `input.metadata${".a".repeat(31)}` },
      });
    }
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("names an inline list's items and a variable's default by where they stand", async () => {
    const lists = `${"[".repeat(40)}1${"]".repeat(40)}`;
    const inList = await harness.graphql(
      `mutation { updateAgent(id: "agt_acme_reception", input: { metadata: { a: ${lists} } }) { agent { id } } }`,
    );
    expect(inList.status).toBe(400);
    expect(inList.body.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      argument: `input.metadata.a${"[0]".repeat(30)}`,
    });
    const deep = `${"{ a: ".repeat(40)}1${" }".repeat(40)}`;
    const inDefault = await harness.graphql(
      `mutation ($m: JSONObject = ${deep}) { updateAgent(id: "agt_acme_reception", input: { metadata: $m }) { agent { id } } }`,
    );
    expect(inDefault.status).toBe(400);
    expect(inDefault.body.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      argument: `$m${".a".repeat(32)}`,
    });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("runs a document whose inline values are within the bound, each time it comes", async () => {
    const document = `mutation { updateAgent(id: "agt_acme_reception", input: { metadata: ${`${"{ a: ".repeat(5)}1${" }".repeat(5)}`} }) { agent { id } } }`;
    for (const _ of [1, 2]) {
      const response = await harness.graphql(document);
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data).toEqual({ updateAgent: { agent: { id: "agt_acme_reception" } } });
    }
  });

  it("accepts metadata as deep as the bound", async () => {
    const response = await harness.graphql(
      'mutation ($input: UpdateAgentInput!) { updateAgent(id: "agt_acme_reception", input: $input) { agent { id } } }',
      { input: { metadata: nested(30) } },
    );
    expect(response.body.errors).toBeUndefined();
    expect(harness.takeUpstreamRequests()).toEqual([`PATCH /v1/agents/${SEED_IDS.acmeAgent}`]);
  });
});

describe("absurd upstream headers", () => {
  const closing = closedAfterEachTest();

  it.each([
    ["far in the future", "99999999999999999"],
    ["past any date", "9000000000000"],
    ["negative", "-5"],
    ["not a number", "soon"],
  ])("ignores an X-RateLimit-Reset %s instead of failing the call", async (_what, reset) => {
    const upstream = closing(
      await startRecordingUpstream((_request, res) =>
        sendJson(
          res,
          200,
          { id: "org_1", name: "Acme" },
          {
            "X-RateLimit-Limit": "100",
            "X-RateLimit-Remaining": "99",
            "X-RateLimit-Reset": reset,
          },
        ),
      ),
    );
    const harness = closing(await startHarness({ upstream: { baseUrl: upstream.url } }));
    const response = await harness.graphql("{ organization { name } }");
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({ organization: { name: "Acme" } });
    expect(response.body.extensions?.rateLimit).toBeUndefined();
  });

  it("caps the wait of a 429 whose reset is absurdly far at one day, and the key's local block at an hour", async () => {
    const upstream = closing(
      await startRecordingUpstream((_request, res) =>
        sendJson(
          res,
          429,
          { error: { code: "RATE_LIMITED", message: "Slow down." } },
          {
            "X-RateLimit-Limit": "100",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": "8000000000000",
          },
        ),
      ),
    );
    const harness = closing(await startHarness({ upstream: { baseUrl: upstream.url } }));
    const response = await harness.graphql("{ organization { name } }");
    expect(response.status).toBe(429);
    expect(response.body.errors?.[0]?.extensions).toMatchObject({
      code: "RATE_LIMITED",
      retryAfter: 86_400,
    });
    expect(response.headers.get("retry-after")).toBe("86400");
    // Answered locally from then on, for at most that hour: no further upstream request.
    const again = await harness.graphql("{ organization { name } }");
    expect(again.body.errors?.[0]?.extensions?.retryAfter).toBeLessThanOrEqual(3600);
    expect(upstream.requests).toHaveLength(1);
  });
});
