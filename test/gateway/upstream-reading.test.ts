import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { ACME, DIALECT, type Harness, startHarness } from "./harness.ts";

// Whichever dialect answers, the schema reads one shape, and `raw` stays the upstream's own.
let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

describe(`reading operation 8 from the ${DIALECT.name} sandbox`, () => {
  it("gives duration in seconds and raw exactly as the upstream sent it", async () => {
    const id = SEED_IDS.acmeConversation;
    const direct = await fetch(`${harness.sandbox.url}/v1/conversations/${id}/status`, {
      headers: { authorization: ACME },
    });
    const sent = (await direct.json()) as { duration: number };
    const unit = DIALECT.durationUnit === "seconds" ? 1 : 1000;

    const response = await harness.graphql(`{ conversation(id: "${id}") { duration raw } }`);

    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({
      conversation: { duration: sent.duration / unit, raw: sent },
    });
    expect(sent.duration / unit).toBe(60);
  });
});
