import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { ACME, DIALECT, type Harness, startHarness } from "./harness.ts";

// Whichever dialect answers, the schema reads one shape, and `raw` stays the upstream's own.
let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

describe(`reading a conversation from the ${DIALECT.name} sandbox`, () => {
  it("gives duration in seconds and raw exactly as the upstream's list item", async () => {
    const id = SEED_IDS.acmeConversation;
    const direct = await fetch(`${harness.sandbox.url}/v1/conversations?limit=100&offset=100`, {
      headers: { authorization: ACME },
    });
    const { items } = (await direct.json()) as { items: Array<{ id: string; duration: number }> };
    const sent = items.find((item) => item.id === id);
    const unit = DIALECT.durationUnit === "seconds" ? 1 : 1000;

    const response = await harness.graphql(`{ conversation(id: "${id}") { duration raw } }`);

    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({
      conversation: { duration: (sent?.duration ?? 0) / unit, raw: sent },
    });
    expect((sent?.duration ?? 0) / unit).toBe(60);
  });

  it("reads operation 8's duration in seconds for a subscription", async () => {
    const id = SEED_IDS.acmeConversation;
    const response = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "text/event-stream",
        authorization: ACME,
      },
      body: JSON.stringify({
        query: `subscription { conversationStatus(id: "${id}") { duration ended } }`,
      }),
    });
    const text = await response.text();
    expect(text).toContain('"conversationStatus":{"duration":60,"ended":true}');
  });
});
