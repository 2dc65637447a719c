import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache } from "@apollo/client";
import { GraphQLWsLink } from "@apollo/client/link/subscriptions";
import { isLiveQueryOperationDefinitionNode } from "@n1ru4l/graphql-live-query";
import { applyLiveQueryJSONPatch } from "@n1ru4l/graphql-live-query-patch-json-patch";
import { Client, fetchExchange, subscriptionExchange } from "@urql/core";
import { type DocumentNode, getOperationAST } from "graphql";
import { createClient as createSseClient } from "graphql-sse";
import { createClient as createWsClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { ACME, type Harness, startHarness } from "../gateway/harness.ts";

// The set-ups of docs/clients.md's live examples (docs/clients/*.ts), against a gateway of each
// test project: each client keeps a live query current, and sees the agent renamed on the upstream
// itself. test/processes/live-clients.test.ts runs the files themselves against `npm start`.

const AGENT = SEED_IDS.acmeAgent;
const LIVE = /* GraphQL */ `
  query Desk($id: ID!) @live {
    agent(id: $id) { id name }
  }
`;

/** Whether an operation is a live query (the directive, as the ecosystem's helper reads it). */
function isLive(query: DocumentNode, variables?: Record<string, unknown>): boolean {
  const operation = getOperationAST(query);
  return operation ? isLiveQueryOperationDefinitionNode(operation, variables) : false;
}

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({
    sandbox: { callIntervalMs: 3_600_000 },
    gateway: { pollIntervalMs: 100 },
  });
});
afterAll(() => harness.close());

async function rename(name: string): Promise<void> {
  const response = await fetch(`${harness.sandbox.url}/v1/agents/${AGENT}`, {
    method: "PATCH",
    headers: { authorization: ACME, "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
  expect(response.status).toBe(200);
  await response.body?.cancel();
}

const wsUrl = () => `${harness.url.replace(/^http/, "ws")}/graphql`;
const nameOf = (data: unknown) => (data as { agent?: { name?: string } } | undefined)?.agent?.name;

describe.sequential("live queries from real clients (docs/clients.md)", () => {
  it("urql: its subscription exchange forwards live queries over graphql-ws", async () => {
    const ws = createWsClient({
      url: wsUrl(),
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: ACME },
    });
    const client = new Client({
      url: `${harness.url}/graphql`,
      fetchOptions: { headers: { authorization: ACME } },
      exchanges: [
        subscriptionExchange({
          // Live queries go where subscriptions go: to a transport that takes several results.
          isSubscriptionOperation: (operation) =>
            operation.kind === "subscription" ||
            (operation.kind === "query" &&
              isLive(operation.query, operation.variables as Record<string, unknown>)),
          forwardSubscription: (request) => ({
            subscribe: (sink) => ({
              unsubscribe: ws.subscribe({ ...request, query: request.query ?? "" }, sink),
            }),
          }),
        }),
        fetchExchange,
      ],
    });
    const seen: unknown[] = [];
    const { unsubscribe } = client
      .query(LIVE, { id: AGENT }, { requestPolicy: "network-only" })
      .subscribe((result) => seen.push(nameOf(result.data)));
    try {
      await vi.waitFor(() => expect(seen).toHaveLength(1), { timeout: 3_000 });
      await rename("Desk (urql)");
      await vi.waitFor(() => expect(seen.at(-1)).toBe("Desk (urql)"), { timeout: 3_000 });
    } finally {
      unsubscribe();
      await ws.dispose();
    }
  });

  it("Apollo Client: a split link sends @live queries over graphql-ws", async () => {
    const ws = createWsClient({
      url: wsUrl(),
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: ACME },
    });
    const link = ApolloLink.split(
      ({ query, variables }) => isLive(query, variables),
      new GraphQLWsLink(ws),
      new HttpLink({ uri: `${harness.url}/graphql`, headers: { authorization: ACME } }),
    );
    const client = new ApolloClient({ link, cache: new InMemoryCache() });
    const seen: unknown[] = [];
    const subscription = client
      .watchQuery({ query: gql(LIVE), variables: { id: AGENT }, fetchPolicy: "network-only" })
      .subscribe((result) => {
        if (result.data) seen.push(nameOf(result.data));
      });
    try {
      await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(1), { timeout: 3_000 });
      await rename("Desk (Apollo)");
      await vi.waitFor(() => expect(seen.at(-1)).toBe("Desk (Apollo)"), { timeout: 3_000 });
      // The cache holds the pushed result: a read elsewhere sees the new name.
      const cache = client.cache.extract() as Record<string, unknown>;
      expect(cache[`Agent:${AGENT}`]).toMatchObject({ name: "Desk (Apollo)" });
    } finally {
      subscription.unsubscribe();
      await ws.dispose();
    }
  });

  it("graphql-sse, with JSON Patches applied by the n1ru4l helper", async () => {
    const sse = createSseClient({
      url: `${harness.url}/graphql`,
      headers: { authorization: ACME },
    });
    const results = applyLiveQueryJSONPatch(
      sse.iterate({
        query: LIVE,
        variables: { id: AGENT },
        extensions: { livePatch: "json-patch" },
      }),
    );
    const seen: unknown[] = [];
    const reading = (async () => {
      for await (const result of results) seen.push(nameOf((result as { data?: unknown }).data));
    })();
    try {
      await vi.waitFor(() => expect(seen).toHaveLength(1), { timeout: 3_000 });
      await rename("Desk (graphql-sse)");
      await vi.waitFor(() => expect(seen.at(-1)).toBe("Desk (graphql-sse)"), { timeout: 3_000 });
    } finally {
      await results.return?.();
      sse.dispose();
      await reading.catch(() => undefined);
    }
  });

  it("graphql-ws, bare", async () => {
    const ws = createWsClient({
      url: wsUrl(),
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: ACME },
    });
    const seen: unknown[] = [];
    const dispose = ws.subscribe(
      { query: LIVE, variables: { id: AGENT } },
      {
        next: (result) => seen.push(nameOf(result.data)),
        error: () => undefined,
        complete: () => undefined,
      },
    );
    try {
      await vi.waitFor(() => expect(seen).toHaveLength(1), { timeout: 3_000 });
      await rename("Desk (graphql-ws)");
      await vi.waitFor(() => expect(seen.at(-1)).toBe("Desk (graphql-ws)"), { timeout: 3_000 });
    } finally {
      dispose();
      await ws.dispose();
    }
  });
});
