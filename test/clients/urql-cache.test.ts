import { Client, fetchExchange, gql } from "@urql/core";
import { cacheExchange } from "@urql/exchange-graphcache";
import { relayPagination } from "@urql/exchange-graphcache/extras";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ACME, type Harness, startHarness } from "../gateway/harness.ts";

// One fragment for the page's items and the node read, as a client writes them: the cache must
// see the same fields for the same ID, whichever query brought them.
const FIELDS = gql`
  fragment ConversationFields on Conversation {
    id
    status
    direction
    channel
    startedAt
    endedAt
    summary
    agent {
      id
      name
    }
  }
`;

const PAGE = gql`
  query Page {
    conversations(first: 6) {
      edges {
        cursor
        node {
          ...ConversationFields
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
  ${FIELDS}
`;

const BY_ID = gql`
  query ById($id: ID!) {
    node(id: $id) {
      id
      ...ConversationFields
    }
  }
  ${FIELDS}
`;

let harness: Harness;
beforeAll(async () => {
  // No live calls start during the test: every conversation of the page has ended.
  harness = await startHarness({ sandbox: { callIntervalMs: 3_600_000, callDurationMs: 1 } });
});
afterAll(() => harness.close());
afterEach(() => vi.restoreAllMocks());

/** urql with Graphcache, as the README shows it. */
function urql() {
  const cache = cacheExchange({
    keys: { ConversationStatusUpdate: () => null, PageInfo: () => null, VoiceConfig: () => null },
    resolvers: { Query: { conversations: relayPagination() } },
  });
  return new Client({
    url: `${harness.url}/graphql`,
    exchanges: [cache, fetchExchange],
    fetchOptions: { headers: { authorization: ACME } },
    preferGetMethod: false,
  });
}

describe("urql's Graphcache", () => {
  it("answers a page from its cache unchanged after node(id) loaded each item", async () => {
    const warnings = vi.spyOn(console, "warn");
    const client = urql();
    const page = await client.query(PAGE, {}).toPromise();
    expect(page.error).toBeUndefined();
    const ids = (
      page.data as { conversations: { edges: Array<{ node: { id: string } }> } }
    ).conversations.edges.map((edge) => edge.node.id);
    expect(ids).toHaveLength(6);
    for (const id of ids) {
      const byId = await client.query(BY_ID, { id }, { requestPolicy: "network-only" }).toPromise();
      expect(byId.error).toBeUndefined();
    }
    const cached = await client.query(PAGE, {}, { requestPolicy: "cache-only" }).toPromise();
    expect(cached.data).toEqual(page.data);
    expect(warnings).not.toHaveBeenCalled();
  });

  it("updates the cached organization after updateOrganization, with no key warning", async () => {
    const warnings = vi.spyOn(console, "warn");
    const client = urql();
    await client.query(gql`{ organization { id name timezone } }`, {}).toPromise();
    const mutation = gql`
      mutation {
        updateOrganization(input: { timezone: "Europe/Berlin" }) {
          organization {
            id
            timezone
          }
        }
      }
    `;
    expect((await client.mutation(mutation, {}).toPromise()).error).toBeUndefined();
    const cached = await client
      .query(gql`{ organization { id name timezone } }`, {}, { requestPolicy: "cache-only" })
      .toPromise();
    expect(cached.data).toMatchObject({
      organization: { name: "Acme Health", timezone: "Europe/Berlin" },
    });
    expect(warnings).not.toHaveBeenCalled();
  });
});
