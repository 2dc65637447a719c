import { createHash } from "node:crypto";
import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache } from "@apollo/client";
import { PersistedQueryLink } from "@apollo/client/link/persisted-queries";
import { afterEach, describe, expect, it } from "vitest";
import { ACME, GATEWAY_REQUEST_ID, type Harness, startHarness, takeRequestIds } from "./harness.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const ORGANIZATION = gql`
  query Organization {
    organization {
      id
      name
    }
  }
`;

let harness: Harness;
afterEach(() => harness.close());

/** An Apollo Client with the persisted-query link, recording what it sent (method and body). */
function apolloClient(useGETForHashedQueries: boolean) {
  const sent: Array<{ method: string; query: boolean; hash: string | undefined }> = [];
  const recording: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    const extensions = body?.extensions ?? JSON.parse(url.searchParams.get("extensions") ?? "{}");
    sent.push({
      method: init?.method ?? "GET",
      query: typeof (body?.query ?? url.searchParams.get("query")) === "string",
      hash: extensions?.persistedQuery?.sha256Hash,
    });
    return fetch(input, init);
  };
  const http = new HttpLink({
    uri: `${harness.url}/graphql`,
    headers: { authorization: ACME },
    fetch: recording,
  });
  const link = ApolloLink.from([new PersistedQueryLink({ sha256, useGETForHashedQueries }), http]);
  return { client: new ApolloClient({ link, cache: new InMemoryCache() }), sent };
}

describe("automatic persisted queries (Apollo's flow)", () => {
  it.each([
    ["POST", false],
    ["GET", true],
  ])(
    "over %s: an unknown hash gets PersistedQueryNotFound, the retry registers it, the next client sends the hash alone",
    async (method, useGet) => {
      harness = await startHarness();
      const first = apolloClient(useGet);
      const answer = await first.client.query({ query: ORGANIZATION });
      expect(answer.data).toEqual({
        organization: { __typename: "Organization", id: "org_acme", name: "Acme Health" },
      });
      const hash = first.sent[0]?.hash;
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      expect(first.sent).toEqual([
        { method, query: false, hash },
        { method: "POST", query: true, hash },
      ]);

      const second = apolloClient(useGet);
      const again = await second.client.query({ query: ORGANIZATION });
      expect(again.data).toEqual(answer.data);
      expect(second.sent).toEqual([{ method, query: false, hash }]);
      // One upstream read per operation that ran: the refused hash-only request made none.
      expect(harness.takeUpstreamRequests()).toEqual([
        "GET /v1/organization",
        "GET /v1/organization",
      ]);
    },
  );

  it("refuses a query whose hash does not match it, with no upstream call", async () => {
    harness = await startHarness();
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: ACME },
      body: JSON.stringify({
        query: "{ organization { name } }",
        extensions: {
          persistedQuery: { version: 1, sha256Hash: sha256("{ agents { totalCount } }") },
        },
      }),
    });
    const body = (await response.json()) as {
      errors: Array<{ message: string; extensions: unknown }>;
    };
    expect(body.errors[0]).toMatchObject({
      message: "provided sha does not match query",
      extensions: { code: "BAD_USER_INPUT" },
    });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });
});

describe("trusted documents only", () => {
  const TRUSTED = "query Org { organization { name } }";
  const manifest = { [sha256(TRUSTED)]: TRUSTED };

  async function post(sent: Record<string, unknown>) {
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: ACME },
      body: JSON.stringify(sent),
    });
    const body = (await response.json()) as Record<string, unknown>;
    takeRequestIds(body, response.headers);
    return { status: response.status, body };
  }

  it("runs a manifest document by documentId, by hash or by identical text", async () => {
    harness = await startHarness({
      gateway: { persistedDocuments: { manifest, trustedOnly: true } },
    });
    const expected = { data: { organization: { name: "Acme Health" } } };
    expect((await post({ documentId: sha256(TRUSTED) })).body).toMatchObject(expected);
    expect(
      (await post({ extensions: { persistedQuery: { version: 1, sha256Hash: sha256(TRUSTED) } } }))
        .body,
    ).toMatchObject(expected);
    expect((await post({ query: TRUSTED })).body).toMatchObject(expected);
    expect(harness.takeUpstreamRequests()).toHaveLength(3);
  });

  it("refuses any other operation before it runs, with no upstream call", async () => {
    harness = await startHarness({
      gateway: { persistedDocuments: { manifest, trustedOnly: true } },
    });
    const other = await post({ query: "{ agents(first: 100) { nodes { systemPrompt } } }" });
    expect(other.body.errors).toEqual([
      {
        message:
          "Only trusted documents run on this gateway: send a `documentId` from its manifest.",
        extensions: {
          code: "PERSISTED_QUERY_ONLY",
          requestId: GATEWAY_REQUEST_ID,
        },
      },
    ]);
    const unknown = await post({ documentId: sha256("{ agents { totalCount } }") });
    expect(unknown.body.errors).toMatchObject([
      { extensions: { code: "PERSISTED_QUERY_NOT_FOUND" } },
    ]);
    // A hash registered the APQ way does not become trusted.
    const registered = await post({
      query: "{ agents { totalCount } }",
      extensions: {
        persistedQuery: { version: 1, sha256Hash: sha256("{ agents { totalCount } }") },
      },
    });
    expect(registered.body.errors).toMatchObject([
      { extensions: { code: "PERSISTED_QUERY_ONLY" } },
    ]);
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });
});
