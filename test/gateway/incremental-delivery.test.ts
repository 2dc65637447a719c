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
