import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SEED_COUNTS, SEED_IDS } from "../../src/sandbox/seed-data.ts";
import {
  type ConnectionArgs,
  connectionQuery,
  errorCodes,
  fetchConnection,
  summary,
} from "./connection-queries.ts";
import { NO_NEW_CALLS } from "./file-harness.ts";
import { ACME, type Harness, startHarness } from "./harness.ts";
import { conversationRefs, SEARCH_PARAM } from "./sandbox-answers.ts";

/**
 * Contract §4 for the limit/offset form, through /graphql over HTTP against the sandbox:
 * `conversations`, `Agent.conversations` and `Contact.conversations`, with exact requests.
 */

let harness: Harness;
/** The whole list in the sandbox's own order (newest first), read straight from the upstream. */
let conversations: Array<{
  id: string;
  status: string;
  channel: string;
  agentId: string | null;
  contactId: string | null;
}>;

async function upstreamItems(path: string): Promise<typeof conversations> {
  const response = await fetch(`${harness.sandbox.url}${path}`, {
    headers: { authorization: ACME },
  });
  const { items } = (await response.json()) as { items: Array<Record<string, unknown>> };
  // Each dialect refers to agent and contact its own way; the expectations use the ids.
  return items.map((item) => ({
    ...(item as (typeof conversations)[number]),
    ...conversationRefs(item),
  }));
}

beforeAll(async () => {
  // No new live calls during the run: the conversation list keeps its order and length.
  harness = await startHarness(NO_NEW_CALLS);
  conversations = [
    ...(await upstreamItems("/v1/conversations?limit=100")),
    ...(await upstreamItems("/v1/conversations?limit=100&offset=100")),
  ];
});
afterAll(() => harness.close());
beforeEach(() => {
  harness.takeUpstreamRequests();
});

const CONVERSATIONS = connectionQuery("conversations", "ConversationFilter");
const conversationList = (args: ConnectionArgs & { filter?: Record<string, unknown> } = {}) =>
  fetchConnection(harness, CONVERSATIONS, "conversations", args);

describe("conversations (limit/offset upstream)", () => {
  const success = () => conversations.filter((c) => c.status === "SUCCESS");

  it("serves the default 50 newest conversations with the total", async () => {
    expect(conversations).toHaveLength(SEED_COUNTS.acme.conversations);
    expect(summary(await conversationList())).toEqual({
      ids: conversations.slice(0, 50).map((c) => c.id),
      hasNextPage: true,
      hasPreviousPage: false,
      totalCount: 120,
    });
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/conversations?limit=51&offset=0"]);
  });

  it("sends the filter after the page parameters and pages the filtered list", async () => {
    const matching = conversations.filter((c) => c.status === "SUCCESS" && c.channel === "VOICE");
    expect(matching.length).toBeGreaterThan(6);
    const filter = { status: "SUCCESS", channel: "VOICE" };
    const first = await conversationList({ first: 4, filter });
    expect(summary(first)).toEqual({
      ids: matching.slice(0, 4).map((c) => c.id),
      hasNextPage: true,
      hasPreviousPage: false,
      totalCount: matching.length,
    });
    const next = await conversationList({ first: 4, after: first.pageInfo.endCursor, filter });
    expect(summary(next).ids).toEqual(matching.slice(4, 8).map((c) => c.id));
    expect(summary(next).hasNextPage).toBe(matching.length > 8);
    expect(harness.takeUpstreamRequests()).toEqual([
      "GET /v1/conversations?limit=5&offset=0&status=SUCCESS&channel=VOICE",
      "GET /v1/conversations?limit=6&offset=3&status=SUCCESS&channel=VOICE",
    ]);
  });

  it("sends every filter in the documented order", async () => {
    const filter = {
      endDate: "2026-12-31T00:00:00.000Z",
      startDate: "2025-01-01T00:00:00.000Z",
      search: "follow up",
      channel: "VOICE",
      direction: "OUTBOUND",
      status: "SUCCESS",
      contactId: SEED_IDS.acmeContact,
      agentId: SEED_IDS.acmeAgent,
    };
    await conversationList({ first: 3, filter });
    expect(harness.takeUpstreamRequests()).toEqual([
      "GET /v1/conversations?limit=4&offset=0&agentId=agt_acme_reception" +
        "&contactId=cnt_acme_maria&status=SUCCESS&direction=OUTBOUND&channel=VOICE" +
        `&${SEARCH_PARAM}=follow%20up&startDate=2025-01-01T00%3A00%3A00.000Z` +
        "&endDate=2026-12-31T00%3A00%3A00.000Z",
    ]);
  });

  it("serves last/before as exactly limit=k&offset=s", async () => {
    const filter = { status: "SUCCESS" };
    const head = await conversationList({ first: 13, filter });
    const before = head.edges[12]?.cursor;
    harness.takeUpstreamRequests();
    const page = await conversationList({ last: 5, before, filter });
    expect(summary(page)).toMatchObject({
      ids: success()
        .slice(7, 12)
        .map((c) => c.id),
      hasPreviousPage: true,
      hasNextPage: true,
      totalCount: success().length,
    });
    expect(harness.takeUpstreamRequests()).toEqual([
      "GET /v1/conversations?limit=6&offset=7&status=SUCCESS",
    ]);
  });

  it("serves `last` without `before` as the tail, learning the total first", async () => {
    const page = await conversationList({ last: 4, filter: { status: "SUCCESS" } });
    const total = success().length;
    expect(summary(page)).toEqual({
      ids: success()
        .slice(total - 4)
        .map((c) => c.id),
      hasNextPage: false,
      hasPreviousPage: true,
      totalCount: total,
    });
    expect(harness.takeUpstreamRequests()).toEqual([
      "GET /v1/conversations?limit=4&offset=0&status=SUCCESS",
      `GET /v1/conversations?limit=4&offset=${total - 4}&status=SUCCESS`,
    ]);
  });

  it("reports an empty filtered list exactly, also for `last`", async () => {
    const filter = { search: "no conversation says this" };
    for (const args of [{ first: 5 }, { last: 5 }]) {
      expect(summary(await conversationList({ ...args, filter }))).toEqual({
        ids: [],
        hasNextPage: false,
        hasPreviousPage: false,
        totalCount: 0,
      });
    }
    expect(harness.takeUpstreamRequests()).toEqual([
      `GET /v1/conversations?limit=6&offset=0&${SEARCH_PARAM}=no%20conversation%20says%20this`,
      `GET /v1/conversations?limit=5&offset=0&${SEARCH_PARAM}=no%20conversation%20says%20this`,
    ]);
  });

  it("pins Agent.conversations to the agent", async () => {
    const query = `query ($filter: ConversationFilter) { agent(id: "${SEED_IDS.acmeAgent}") {
      conversations(first: 3, filter: $filter) { totalCount edges { node { id agent { id } } } } } }`;
    const { body } = await harness.graphql<{
      agent: { conversations: { totalCount: number; edges: Array<{ node: { id: string } }> } };
    }>(query, { filter: { status: "SUCCESS", agentId: SEED_IDS.acmeAgent } });
    expect(body.errors).toBeUndefined();
    const own = success().filter((c) => c.agentId === SEED_IDS.acmeAgent);
    expect(body.data?.agent.conversations).toEqual({
      totalCount: own.length,
      edges: own
        .slice(0, 3)
        .map((c) => ({ node: { id: c.id, agent: { id: SEED_IDS.acmeAgent } } })),
    });
    expect(harness.takeUpstreamRequests()).toEqual([
      "GET /v1/agents/agt_acme_reception",
      "GET /v1/conversations?limit=4&offset=0&agentId=agt_acme_reception&status=SUCCESS",
    ]);
  });

  it("refuses a filter.agentId other than the agent's own without listing conversations", async () => {
    const query = `{ agent(id: "${SEED_IDS.acmeAgent}") {
      conversations(first: 3, filter: { agentId: "${SEED_IDS.acmeAgentPaused}" }) { totalCount } } }`;
    const { body } = await harness.graphql(query);
    expect(errorCodes(body)).toEqual(["BAD_USER_INPUT"]);
    expect(body.errors?.[0]?.path).toEqual(["agent", "conversations"]);
    // The agent itself is loaded before its field can judge the filter; the list is never asked.
    expect(harness.takeUpstreamRequests()).toEqual([`GET /v1/agents/${SEED_IDS.acmeAgent}`]);
  });

  it("pins Contact.conversations to the contact", async () => {
    const query = `{ contact(id: "${SEED_IDS.acmeContact}") {
      conversations(first: 2) { totalCount edges { node { id } } } } }`;
    const { body } = await harness.graphql<{
      contact: { conversations: { totalCount: number; edges: Array<{ node: { id: string } }> } };
    }>(query);
    expect(body.errors).toBeUndefined();
    const own = conversations.filter((c) => c.contactId === SEED_IDS.acmeContact);
    expect(body.data?.contact.conversations).toEqual({
      totalCount: own.length,
      edges: own.slice(0, 2).map((c) => ({ node: { id: c.id } })),
    });
    expect(harness.takeUpstreamRequests()).toEqual([
      "GET /v1/contacts/cnt_acme_maria/stats",
      "GET /v1/conversations?limit=3&offset=0&contactId=cnt_acme_maria",
    ]);
  });
});
