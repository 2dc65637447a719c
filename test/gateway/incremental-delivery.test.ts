import { afterEach, describe, expect, it } from "vitest";
import { ACME, type Harness, startHarness } from "./harness.ts";
import { chunks, postTakingParts } from "./incremental-support.ts";

let harness: Harness;
afterEach(() => harness.close());

const DASHBOARD = `{
  organization { name }
  ... @defer(label: "slow") { agents(first: 1) { totalCount } }
}`;

describe("@defer: the fast fields first", () => {
  it.each([
    ["multipart", "multipart/mixed"],
    ["SSE", "text/event-stream"],
  ])("over %s, sends the organization before the slow agent list", async (_name, accept) => {
    harness = await startHarness();
    // The agent list answers late; the organization at once.
    harness.sandbox.injectFault({ path: "/v1/agents", delayMs: 400 });
    const response = await postTakingParts(harness.url, DASHBOARD, accept);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain(accept);
    const parts = await chunks(response);
    const first = parts.findIndex((part) => part.includes("Acme Health"));
    const slow = parts.findIndex((part) => part.includes('"totalCount":45'));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(slow).toBeGreaterThan(first);
    expect(parts[first]).not.toContain("totalCount");
    expect(parts.join("")).toContain('"hasNext":false');
  });

  it("answers a client that cannot take parts with the whole result at once", async () => {
    harness = await startHarness();
    const response = await harness.graphql(DASHBOARD);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("json");
    expect(response.body.data).toEqual({
      organization: { name: "Acme Health" },
      agents: { totalCount: 45 },
    });
  });

  it("streams a list with @stream", async () => {
    harness = await startHarness();
    const response = await postTakingParts(
      harness.url,
      "{ agents(first: 3) { nodes @stream(initialCount: 1) { id } } }",
    );
    const body = (await chunks(response)).join("");
    expect(body).toContain('"incremental"');
    expect(body.match(/agt_/g)).toHaveLength(3);
  });
});

describe("one parse for every client", () => {
  const DEFERRED_STATUS = '{ agent(id: "agt_acme_reception") { id ... @defer { status } } }';

  it.each([
    ["mentions @defer in a comment", "# @defer\n"],
    ["mentions @stream in a comment", "# @stream\n"],
    ["mentions neither", ""],
  ])("refuses a document past MAX_TOKENS that %s, for a JSON client", async (_name, prefix) => {
    harness = await startHarness({ gateway: { maxTokens: 200 } });
    const response = await harness.graphql(`${prefix}{ ${"organization { name } ".repeat(60)}}`);
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.message).toBe("Syntax Error: Token limit of 200 exceeded.");
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("refuses a document past MAX_TOKENS that uses @defer, whatever the client accepts", async () => {
    harness = await startHarness({ gateway: { maxTokens: 200 } });
    const query = `{ ${"... @defer { organization { name } } ".repeat(30)}}`;
    const json = await harness.graphql(query);
    expect(json.status).toBe(400);
    expect(json.body.errors?.[0]?.message).toBe("Syntax Error: Token limit of 200 exceeded.");
    const parts = await postTakingParts(harness.url, query);
    expect(parts.status).toBe(400);
    expect(await parts.text()).toContain("Token limit of 200 exceeded.");
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("answers a JSON client the same whether or not a client that takes parts sent the text first", async () => {
    harness = await startHarness();
    const alone = await harness.graphql(DEFERRED_STATUS);
    await harness.close();

    harness = await startHarness();
    const taking = await postTakingParts(harness.url, DEFERRED_STATUS);
    expect(taking.headers.get("content-type")).toContain("multipart/mixed");
    expect((await chunks(taking)).join("")).toContain('"hasNext":false');
    const after = await harness.graphql(DEFERRED_STATUS);
    expect(alone.status).toBe(200);
    expect(alone.body.data).toEqual({
      agent: { id: "agt_acme_reception", status: expect.any(String) },
    });
    // The rate-limit figures in `extensions` move with every call: the answer itself must not.
    const answer = (response: typeof alone) => ({
      status: response.status,
      data: response.body.data,
      errors: response.body.errors,
    });
    expect(answer(after)).toEqual(answer(alone));
  });

  it("still sends parts to a client that takes them after a JSON client sent the text", async () => {
    harness = await startHarness();
    const json = await harness.graphql(DEFERRED_STATUS);
    expect(json.status).toBe(200);
    const taking = await postTakingParts(harness.url, DEFERRED_STATUS);
    expect(taking.headers.get("content-type")).toContain("multipart/mixed");
    const body = (await chunks(taking)).join("");
    expect(body).toContain('"incremental"');
    expect(body).toContain('"hasNext":false');
  });
});

describe("batched requests", () => {
  const batch = (size: number) =>
    Array.from({ length: size }, () => ({ query: "{ organization { name } }" }));
  async function post(body: unknown) {
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: ACME },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  }

  it("are refused by default, with no upstream call", async () => {
    harness = await startHarness();
    const { status } = await post(batch(2));
    expect(status).toBe(400);
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("run up to MAX_BATCH_SIZE operations when turned on, and no more", async () => {
    harness = await startHarness({ gateway: { maxBatchSize: 2 } });
    const within = await post(batch(2));
    expect(within.status).toBe(200);
    expect(within.body).toMatchObject([
      { data: { organization: { name: "Acme Health" } } },
      { data: { organization: { name: "Acme Health" } } },
    ]);
    harness.takeUpstreamRequests();
    const over = await post(batch(3));
    expect(over.status).toBe(413);
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });
});
