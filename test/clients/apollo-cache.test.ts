import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache } from "@apollo/client";
import { relayStylePagination } from "@apollo/client/utilities";
import { print } from "graphql";
import { createClient } from "graphql-sse";
import { Observable } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { ACME, type Harness, startHarness } from "../gateway/harness.ts";

/**
 * A frontend's Apollo Client over real HTTP: one conversation page, then `node(id)` for each of
 * its items, then the live call's subscription. The normalised cache must change only where the
 * data really changed (one ID, one truth).
 */
const FIELDS = gql`
  fragment ConversationFields on Conversation {
    id
    status
    direction
    channel
    duration
    startedAt
    endedAt
    summary
    agent {
      id
      name
    }
    contact {
      id
    }
  }
`;

const PAGE = gql`
  ${FIELDS}
  query Page {
    conversations(first: 8) {
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
`;

const BY_ID = gql`
  ${FIELDS}
  query ById($id: ID!) {
    node(id: $id) {
      ...ConversationFields
    }
  }
`;

const FOLLOW = gql`
  subscription Follow($id: ID!) {
    conversationStatus(id: $id) {
      conversation {
        id
        status
        duration
        endedAt
      }
      duration
      ended
    }
  }
`;

/** The README's type policies ("Using it from Apollo, urql and Relay"). */
const typePolicies = {
  Query: { fields: { conversations: relayStylePagination(["filter"]) } },
};

let harness: Harness;
beforeAll(async () => {
  // Live calls that last 3 s: the seeded ones end while the test follows them.
  harness = await startHarness({ sandbox: { callDurationMs: 3_000, callIntervalMs: 3_600_000 } });
});
afterAll(() => harness.close());

function apollo() {
  const sse = createClient({
    url: `${harness.url}/graphql`,
    headers: { authorization: ACME },
    retryAttempts: 0,
  });
  // Subscriptions over SSE (graphql-sse), the rest over HTTP.
  const subscriptions = new ApolloLink(
    (operation) =>
      new Observable((observer) =>
        sse.subscribe(
          { query: print(operation.query), variables: operation.variables },
          {
            next: (value) => observer.next(value as never),
            error: (error) => observer.error(error),
            complete: () => observer.complete(),
          },
        ),
      ),
  );
  const http = new HttpLink({ uri: `${harness.url}/graphql`, headers: { authorization: ACME } });
  const link = ApolloLink.split(
    ({ query }) =>
      query.definitions.some(
        (definition) =>
          definition.kind === "OperationDefinition" && definition.operation === "subscription",
      ),
    subscriptions,
    http,
  );
  return new ApolloClient({ link, cache: new InMemoryCache({ typePolicies }) });
}

type Cache = Record<string, Record<string, unknown>>;

/** The cache's normalised records of one type, by key. */
function records(cache: Cache, typename: string): Cache {
  return Object.fromEntries(
    Object.entries(cache).filter(([key]) => key.startsWith(`${typename}:`)),
  );
}

describe("Apollo Client's normalised cache", () => {
  it("keeps a page's conversations through node(id) and a subscription, changing only what changed", async () => {
    const client = apollo();
    const page = await client.query({ query: PAGE });
    const ids = (
      page.data as { conversations: { edges: Array<{ node: { id: string } }> } }
    ).conversations.edges.map((edge) => edge.node.id);
    expect(ids).toContain(SEED_IDS.acmeLiveConversation);
    const afterPage = client.cache.extract() as Cache;

    // node(id) for every item: the same values, so the cached records do not change at all.
    for (const id of ids) {
      await client.query({ query: BY_ID, variables: { id }, fetchPolicy: "network-only" });
    }
    const afterNodes = client.cache.extract() as Cache;
    const live = `Conversation:${SEED_IDS.acmeLiveConversation}`;
    const stillLive = (afterNodes[live] as { status: string }).status === "IN_PROGRESS";
    const unchanged = (cache: Cache, except: string[]) =>
      Object.fromEntries(
        Object.entries(records(cache, "Conversation")).filter(([key]) => !except.includes(key)),
      );
    // Calls in progress change between reads (durations grow, a 3 s call may end while a busy
    // machine reads the page's items one by one); every other record is identical.
    const inProgress = Object.entries(records(afterPage, "Conversation"))
      .filter(([, record]) => record.status === "IN_PROGRESS")
      .map(([key]) => key);
    expect(inProgress).toContain(live);
    expect(unchanged(afterNodes, inProgress)).toEqual(unchanged(afterPage, inProgress));
    expect(records(afterNodes, "Agent")).toEqual(records(afterPage, "Agent"));
    const { duration: _d1, ...liveAfterPage } = afterPage[live] as Record<string, unknown>;
    const { duration: _d2, ...liveAfterNodes } = afterNodes[live] as Record<string, unknown>;
    if (stillLive) expect(liveAfterNodes).toEqual(liveAfterPage);

    // The subscription updates the cached Conversation in place until the call ends.
    const events: unknown[] = [];
    await new Promise<void>((resolve, reject) => {
      client
        .subscribe({ query: FOLLOW, variables: { id: SEED_IDS.acmeLiveConversation } })
        .subscribe({
          next: (event) => events.push(event),
          error: reject,
          complete: () => setTimeout(resolve, 50),
        });
    });
    expect(events.length).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({
      data: { conversationStatus: { conversation: { status: "SUCCESS" }, ended: true } },
    });
    const afterEvents = client.cache.extract() as Cache;
    expect(afterEvents[live]).toEqual({
      ...afterNodes[live],
      status: "SUCCESS",
      duration: expect.any(Number),
      endedAt: expect.stringMatching(/^\d{4}-/),
    });
    expect(unchanged(afterEvents, inProgress)).toEqual(unchanged(afterPage, inProgress));
    // No record of another type was made for the update: it carries no ID of its own.
    expect(
      Object.keys(afterEvents).filter((key) => key.startsWith("ConversationStatusUpdate")),
    ).toEqual([]);
  });

  it("updates the cached organization after updateOrganization, keyed by its ID", async () => {
    const client = apollo();
    await client.query({ query: gql`{ organization { id name timezone } }` });
    await client.mutate({
      mutation: gql`mutation { updateOrganization(input: { timezone: "Europe/Berlin" }) { organization { id timezone } } }`,
    });
    const cache = client.cache.extract() as Cache;
    expect(cache[`Organization:${SEED_IDS.acmeOrganization}`]).toMatchObject({
      name: "Acme Health",
      timezone: "Europe/Berlin",
    });
  });
});
