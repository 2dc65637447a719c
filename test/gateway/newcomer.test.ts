import { describe, expect, it } from "vitest";
import { closedAfterEachTest } from "../support/closing.ts";
import { ACME, startHarness } from "./harness.ts";

// The frictions of a newcomer's first hour, each proven over real HTTP (a real start: in
// test/processes/newcomer-start.test.ts).

const closing = closedAfterEachTest();

describe("errors that say what to do", () => {
  it("names MAX_BATCH_SIZE when a batch is refused", async () => {
    const harness = closing(await startHarness());
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: ACME },
      body: JSON.stringify([{ query: "{ __typename }" }, { query: "{ __typename }" }]),
    });
    const body = (await response.json()) as { errors: Array<{ message: string }> };
    expect(response.status).toBe(400);
    expect(body.errors[0]?.message).toMatch(/set MAX_BATCH_SIZE/);
  });

  it("names the limit when a batch is too long", async () => {
    const harness = closing(await startHarness({ gateway: { maxBatchSize: 2 } }));
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: ACME },
      body: JSON.stringify(Array(3).fill({ query: "{ __typename }" })),
    });
    const body = (await response.json()) as { errors: Array<{ message: string }> };
    expect(response.status).toBe(413);
    expect(body.errors[0]?.message).toMatch(/at most 2 operations \(MAX_BATCH_SIZE\)/);
  });
});

describe("pages a browser lands on", () => {
  it("answers GET / with a page that says where the endpoint is", async () => {
    const harness = closing(await startHarness());
    const response = await fetch(`${harness.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain("POST /graphql");
    expect(html).toContain("GRAPHIQL=true");
  });

  it("answers a browser's GET /graphql with GraphiQL off with that page, not a bare 406", async () => {
    const harness = closing(await startHarness({ gateway: { graphiql: false } }));
    const response = await fetch(`${harness.url}/graphql`, {
      headers: { accept: "text/html,application/xhtml+xml" },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("GRAPHIQL=true");
    // A GET query is still a query.
    const query = await fetch(`${harness.url}/graphql?query=%7B__typename%7D`, {
      headers: { accept: "application/json" },
    });
    expect(await query.json()).toMatchObject({ data: { __typename: "Query" } });
  });
});

describe("one rule for HTTP statuses, whatever the client accepts", () => {
  const asJsonOnly = (harness: { url: string }, query: string) =>
    fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        authorization: ACME,
      },
      body: JSON.stringify({ query }),
    });

  it.each([
    [
      "a depth refusal",
      `{ agent(id: "agt_1") { conversations { nodes { agent { conversations { nodes { agent { conversations { nodes { agent { conversations { nodes { id } } } } } } } } } } } } }`,
      "DEPTH_LIMIT_EXCEEDED",
    ],
    [
      "an alias refusal",
      `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: organization { id }`).join(" ")} }`,
      "ALIAS_LIMIT_EXCEEDED",
    ],
  ])(
    "answers %s 200 in plain JSON and 400 in graphql-response+json, as the error shows",
    async (_what, query, code) => {
      const harness = closing(await startHarness());
      const response = await asJsonOnly(harness, query);
      const body = (await response.json()) as {
        errors: Array<{ extensions: Record<string, unknown> }>;
      };
      expect(body.errors[0]?.extensions.code).toBe(code);
      expect(response.status).toBe(200);
      expect(body.errors[0]?.extensions.http).toBeUndefined();
      const strict = await harness.graphql(query);
      expect(strict.status).toBe(400);
      expect(strict.body.errors?.[0]?.extensions.http).toEqual({ status: 400 });
    },
  );

  it("answers a wrong key 200 with its field error carrying the upstream's 401, and no http.status", async () => {
    const harness = closing(await startHarness());
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk_wrong_key_123" },
      body: JSON.stringify({ query: "{ organization { id } }" }),
    });
    const body = (await response.json()) as {
      errors: Array<{ extensions: Record<string, unknown> }>;
    };
    expect(response.status).toBe(200);
    expect(body.errors[0]?.extensions).toMatchObject({
      code: "UNAUTHENTICATED",
      upstream: { status: 401 },
    });
    expect(body.errors[0]?.extensions.http).toBeUndefined();
  });
});
