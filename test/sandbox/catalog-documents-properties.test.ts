import { describe, expect, it } from "vitest";
import { DEMO_KEYS, SEED_COUNTS, SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { call, expectError, sandboxFor } from "./http.ts";

const sandbox = sandboxFor("file");

describe("tool catalog (operation 13)", () => {
  it("returns { items } with every catalog entry", async () => {
    const answer = await call(sandbox(), "/v1/tools/catalog");
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(["items"]);
    expect(answer.body.items).toHaveLength(SEED_COUNTS.tools);
    expect(answer.body.items[0]).toEqual({
      id: SEED_IDS.tool,
      name: "Calendar booking",
      description: "Books, moves or cancels appointments.",
      category: "scheduling",
      type: "INTEGRATION",
      parameters: {
        type: "object",
        properties: { date: { type: "string", description: "ISO 8601 date-time of the slot" } },
        required: ["date"],
      },
    });
  });
});

describe("documents (operation 14)", () => {
  it("returns a document's details", async () => {
    const answer = await call(sandbox(), `/v1/documents/${SEED_IDS.acmeDocument}`);
    expect(answer.body).toEqual({
      id: SEED_IDS.acmeDocument,
      name: "Patient FAQ.md",
      mimeType: "text/markdown",
      sizeBytes: 18_432,
      status: "READY",
      createdAt: "2026-01-05T15:00:00.000Z",
      updatedAt: "2026-01-05T17:00:00.000Z",
    });
    const globex = await call(sandbox(), `/v1/documents/${SEED_IDS.globexDocument}`, {
      key: DEMO_KEYS.globex,
    });
    expect(globex.body.name).toBe("Handbook.pdf");
  });

  it("answers 404 for an unknown document", async () => {
    expectError(await call(sandbox(), "/v1/documents/doc_nope"), 404, "NOT_FOUND");
  });
});

describe("property definitions (operation 9)", () => {
  it("deletes with 204 and no body, then answers 404", async () => {
    const path = `/v1/properties/${SEED_IDS.acmeProperty}`;
    const answer = await call(sandbox(), path, { method: "DELETE" });
    expect(answer.status).toBe(204);
    expect(answer.body).toBeUndefined();
    expectError(await call(sandbox(), path, { method: "DELETE" }), 404, "NOT_FOUND");
  });
});
