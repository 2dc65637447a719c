import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { connectionQuery, errorCodes, fetchConnection } from "./connection-queries.ts";
import { harness, NO_NEW_CALLS, oneHarnessPerFile } from "./file-harness.ts";

/**
 * Contract §4's checks that need no upstream call, through /graphql against the sandbox:
 * `first`/`last` bounds (before any call of the operation) and filter-bound gateway cursors.
 */

oneHarnessPerFile(NO_NEW_CALLS);

const AGENTS = connectionQuery("agents");
const CONVERSATIONS = connectionQuery("conversations", "ConversationFilter");
const CAMPAIGNS = connectionQuery("campaigns", "CampaignFilter", true);

/** The endCursor of a first page, with the requests it took cleared. */
async function endCursorOf(query: string, field: string, variables: Record<string, unknown>) {
  const page = await fetchConnection(harness, query, field, { first: 2, ...variables });
  harness.takeUpstreamRequests();
  return page.pageInfo.endCursor as string;
}

describe("first/last bounds, judged before any upstream call", () => {
  it.each([
    ["agents(first: 101)", "`first` must be between 0 and 100, got 101"],
    ["agents(first: -1)", "`first` must be between 0 and 100, got -1"],
    ["agents(last: 101)", "`last` must be between 0 and 100, got 101"],
    ["conversations(last: 101)", "`last` must be between 0 and 100, got 101"],
    ["campaigns(first: 101)", "`first` must be between 0 and 100, got 101"],
  ])("refuses %s with BAD_USER_INPUT and no upstream call at all", async (field, message) => {
    // The other root fields would each call the upstream if the operation ran.
    const query = `{ organization { name } ${field} { totalCount } agent(id: "${SEED_IDS.acmeAgent}") { name } }`;
    const { status, body } = await harness.graphql(query);
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors).toEqual([
      expect.objectContaining({
        message,
        extensions: expect.objectContaining({ code: "BAD_USER_INPUT" }),
      }),
    ]);
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("judges nested connections and variables the same way", async () => {
    const query = `query ($n: Int) { agents(first: 2) { nodes { conversations(last: $n) { totalCount } } } }`;
    const { body } = await harness.graphql(query, { n: 500 });
    expect(errorCodes(body)).toEqual(["BAD_USER_INPUT"]);
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it.each(["last: 5", 'before: "x"'])(
    "has no `%s` on campaigns: a validation error, no call",
    async (argument) => {
      const { status, body } = await harness.graphql(`{ campaigns(${argument}) { totalCount } }`);
      expect(status).toBe(400);
      expect(errorCodes(body)).toEqual(["GRAPHQL_VALIDATION_FAILED"]);
      expect(body.errors?.[0]?.message).toMatch(/^Unknown argument "(last|before)"/);
      expect(harness.takeUpstreamRequests()).toEqual([]);
    },
  );

  it("accepts the bounds themselves: first: 100 and last: 0", async () => {
    const hundred = await fetchConnection(harness, CONVERSATIONS, "conversations", { first: 100 });
    expect(hundred.edges).toHaveLength(100);
    const none = await fetchConnection(harness, AGENTS, "agents", { last: 0 });
    expect(none.edges).toEqual([]);
    expect(none.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(harness.takeUpstreamRequests()).toEqual([
      "GET /v1/conversations?limit=51&offset=0",
      "GET /v1/conversations?limit=50&offset=51",
      "GET /v1/agents?page=1&pageSize=1",
    ]);
  });
});

describe("gateway cursors are bound to their list and filters", () => {
  async function expectRefused(
    query: string,
    variables: Record<string, unknown>,
    code: "CURSOR_MISMATCH" | "BAD_USER_INPUT",
  ) {
    const { status, body } = await harness.graphql(query, variables);
    expect(status).toBe(200);
    expect(body.data && Object.values(body.data)).toEqual([null]);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  }

  it("refuses a conversations cursor reused with another filter, without a call", async () => {
    const after = await endCursorOf(CONVERSATIONS, "conversations", {
      filter: { status: "SUCCESS" },
    });
    await expectRefused(CONVERSATIONS, { after, filter: { status: "FAILED" } }, "CURSOR_MISMATCH");
    await expectRefused(CONVERSATIONS, { after }, "CURSOR_MISMATCH");
    await expectRefused(
      CONVERSATIONS,
      { before: after, filter: { status: "SUCCESS", channel: "VOICE" } },
      "CURSOR_MISMATCH",
    );
  });

  it("accepts the cursor with the same filter however it is written", async () => {
    const filter = { status: "SUCCESS", channel: "VOICE" };
    const after = await endCursorOf(CONVERSATIONS, "conversations", { filter });
    const reordered = { channel: "VOICE", search: null, status: "SUCCESS" };
    await fetchConnection(harness, CONVERSATIONS, "conversations", { after, filter: reordered });
    expect(harness.takeUpstreamRequests()).toEqual([
      "GET /v1/conversations?limit=52&offset=1&status=SUCCESS&channel=VOICE",
    ]);
  });

  it("refuses a cursor of one list on another", async () => {
    const agentsCursor = await endCursorOf(AGENTS, "agents", {});
    await expectRefused(CONVERSATIONS, { after: agentsCursor }, "CURSOR_MISMATCH");
    const campaignsCursor = await endCursorOf(CAMPAIGNS, "campaigns", {});
    await expectRefused(AGENTS, { after: campaignsCursor }, "CURSOR_MISMATCH");
    const conversationsCursor = await endCursorOf(CONVERSATIONS, "conversations", {});
    await expectRefused(AGENTS, { before: conversationsCursor }, "CURSOR_MISMATCH");
  });

  it("refuses a campaigns cursor reused with another status", async () => {
    const after = await endCursorOf(CAMPAIGNS, "campaigns", { filter: { status: "COMPLETED" } });
    await expectRefused(CAMPAIGNS, { after, filter: { status: "RUNNING" } }, "CURSOR_MISMATCH");
  });

  it("refuses one agent's conversation cursor on another agent's conversations", async () => {
    const list = (id: string) => `query ($after: String) { agent(id: "${id}") {
      conversations(first: 2, after: $after) { pageInfo { endCursor } } } }`;
    const { body } = await harness.graphql<{
      agent: { conversations: { pageInfo: { endCursor: string } } };
    }>(list(SEED_IDS.acmeAgent));
    const after = body.data?.agent.conversations.pageInfo.endCursor;
    harness.takeUpstreamRequests();
    const other = await harness.graphql(list(SEED_IDS.acmeAgentPaused), { after });
    expect(errorCodes(other.body)).toEqual(["CURSOR_MISMATCH"]);
    // The agent is loaded first; the conversation list is never asked.
    expect(harness.takeUpstreamRequests()).toEqual([`GET /v1/agents/${SEED_IDS.acmeAgentPaused}`]);
  });

  it.each([
    "garbage",
    "eyJ2IjoxfQ",
    Buffer.from('{"v":1,"f":"offset","d":"x","p":-3}').toString("base64url"),
    "forged",
  ])(
    "refuses %s as not a cursor of this gateway: the whole operation, as `first: 500`, before any call",
    async (given) => {
      const issued = await endCursorOf(AGENTS, "agents", {});
      // A cursor of this gateway with one character of its signature changed.
      const cursor =
        given === "forged" ? `${issued.slice(0, -1)}${issued.endsWith("A") ? "B" : "A"}` : given;
      // The status of a whole-operation BAD_USER_INPUT, whatever the status rule makes it.
      const bound = await harness.graphql(AGENTS, { first: 500 });
      expect(bound.body.data).toBeUndefined();
      for (const [query, argument] of [
        [CONVERSATIONS, "after"],
        [AGENTS, "before"],
        [CAMPAIGNS, "after"],
      ] as const) {
        const { status, body } = await harness.graphql(query, { [argument]: cursor });
        expect(status).toBe(bound.status);
        expect(body.data).toBeUndefined();
        expect(body.errors?.map((error) => [error.path, error.extensions?.code])).toEqual([
          [undefined, "BAD_USER_INPUT"],
        ]);
        expect(body.errors?.[0]?.extensions).toMatchObject({
          argument,
          http: bound.body.errors?.[0]?.extensions?.http,
        });
        expect(harness.takeUpstreamRequests()).toEqual([]);
      }
    },
  );
});
