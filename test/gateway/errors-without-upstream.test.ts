import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { harness, oneHarnessPerFile } from "./file-harness.ts";
import { GATEWAY_REQUEST_ID } from "./harness.ts";

oneHarnessPerFile();

describe("what the gateway decides without the upstream", () => {
  it("refuses an ID with another resource's prefix: HTTP 400 for the whole operation, no call", async () => {
    const response = await harness.graphql(
      `{ organization { name } agent(id: "${SEED_IDS.acmeContact}") { id } }`,
    );

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      errors: [
        {
          message: '`id` must be an agent ID starting with "agt_", got "cnt_acme_maria".',
          locations: [{ line: 1, column: 31 }],
          extensions: {
            code: "BAD_USER_INPUT",
            http: { status: 400 },
            argument: "id",
            requestId: GATEWAY_REQUEST_ID,
          },
        },
      ],
    });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("refuses `node` with an ID of no known prefix: HTTP 400, no upstream call", async () => {
    const response = await harness.graphql('{ node(id: "usr_1") { id } }');

    expect(response.status).toBe(400);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors?.[0]?.extensions).toEqual({
      code: "BAD_USER_INPUT",
      http: { status: 400 },
      requestId: GATEWAY_REQUEST_ID,
      argument: "id",
    });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("answers an operation without Authorization with UNAUTHENTICATED, HTTP 401, no upstream call", async () => {
    const response = await harness.graphql("{ organization { name } }", undefined, {
      authorization: null,
    });

    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      errors: [
        {
          message: "An API key is required: send the header `Authorization: Bearer <API key>`.",
          extensions: {
            code: "UNAUTHENTICATED",
            requestId: GATEWAY_REQUEST_ID,
            http: { status: 401 },
          },
        },
      ],
      extensions: { cost: { estimated: 1, upstreamCalls: 0 } },
    });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it.each([
    ["a scheme with nothing after it", "Bearer "],
    ["a key without its scheme", "sk_test_acme"],
    ["another scheme", "Basic c2tfdGVzdF9hY21lOg=="],
    ["a scheme alone, spaced", "  bearer   "],
  ])("refuses %s as UNAUTHENTICATED, HTTP 401, with no upstream call", async (_name, value) => {
    const response = await harness.graphql("{ organization { name } }", undefined, {
      authorization: value,
    });

    expect(response.status).toBe(401);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors?.[0]?.message).toBe(
      "The Authorization value must be `Bearer <API key>`, with the key after the scheme.",
    );
    expect(response.body.errors?.[0]?.extensions).toMatchObject({ code: "UNAUTHENTICATED" });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it.each([
    ["{ __schema { queryType { name } } }", { __schema: { queryType: { name: "Query" } } }],
    ["{ __typename }", { __typename: "Query" }],
  ])("serves introspection %s without a key or an upstream call", async (query, data) => {
    const response = await harness.graphql(query, undefined, { authorization: null });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data,
      extensions: { cost: { estimated: 0, upstreamCalls: 0 } },
    });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });
});

describe("variables that do not fit their types", () => {
  it("are BAD_USER_INPUT with HTTP 400 and no upstream call", async () => {
    const response = await harness.graphql(
      "query ($f: ConversationFilter) { conversations(filter: $f) { totalCount } }",
      { f: { startDate: "yesterday" } },
    );
    expect(response.status).toBe(400);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors).toEqual([
      {
        message: expect.stringContaining('Variable "$f" got invalid value "yesterday"'),
        locations: [{ line: 1, column: 8 }],
        extensions: {
          code: "BAD_USER_INPUT",
          argument: "$f.startDate",
          requestId: GATEWAY_REQUEST_ID,
          http: { status: 400 },
        },
      },
    ]);
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it.each([
    ["query ($first: Int) { agents(first: $first) { totalCount } }", { first: "abc" }, "$first"],
    ["query ($id: ID!) { agent(id: $id) { id } }", { id: true }, "$id"],
    [
      "query ($ids: [ID!]!) { nodes(ids: $ids) { id } }",
      { ids: ["agt_acme_reception", 4.5] },
      "$ids[1]",
    ],
    ["query ($id: ID!) { agent(id: $id) { id } }", {}, "$id"],
  ])("name the variable as the `argument`: %s", async (query, variables, argument) => {
    const response = await harness.graphql(query, variables);
    expect(response.status).toBe(400);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors?.map((error) => error.extensions)).toEqual([
      { code: "BAD_USER_INPUT", argument, requestId: GATEWAY_REQUEST_ID, http: { status: 400 } },
    ]);
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });
});

describe("IDs too long to be real", () => {
  it.each([
    ["query ($id: ID!) { agent(id: $id) { name } }", "id"],
    ["query ($id: ID!) { organization { name } node(id: $id) { id } }", "id"],
    ["query ($id: ID!) { nodes(ids: [$id]) { id } }", "ids[0]"],
    [
      "query ($id: ID) { conversations(filter: { agentId: $id }) { totalCount } }",
      "filter.agentId",
    ],
    [
      'mutation ($id: ID!) { assignPhoneNumber(input: { agentId: "agt_1", phoneNumberId: $id }) { phoneNumberId } }',
      "input.phoneNumberId",
    ],
  ])(
    "refuse %s for the whole operation, naming `%s`, HTTP 400, no call",
    async (query, argument) => {
      const response = await harness.graphql(query, { id: `agt_${"x".repeat(300)}` });

      expect(response.status).toBe(400);
      expect(response.body.data).toBeUndefined();
      expect(response.body.errors?.map((error) => [error.message, error.extensions])).toEqual([
        [
          `\`${argument}\` is 304 characters long; an ID has at most 255.`,
          {
            code: "BAD_USER_INPUT",
            http: { status: 400 },
            argument,
            requestId: GATEWAY_REQUEST_ID,
          },
        ],
      ]);
      expect(harness.takeUpstreamRequests()).toEqual([]);
    },
  );

  it("are quoted back cut short when their prefix is wrong", async () => {
    const response = await harness.graphql(`{ agent(id: "cnv_${"y".repeat(500)}") { name } }`);
    const message = response.body.errors?.[0]?.message ?? "";
    expect(message).toBe(
      `\`id\` must be an agent ID starting with "agt_", got "cnv_${"y".repeat(60)}…".`,
    );
  });
});
