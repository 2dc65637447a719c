import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  printedSchema,
  printedSubgraph,
  SCHEMA_FILE,
  SUBGRAPH_FILE,
} from "../../src/schema/print.ts";

describe("schema/schema.graphql", () => {
  it("is exactly the SDL printed from the code (run `npm run schema:print` after a change)", () => {
    expect(readFileSync(SCHEMA_FILE, "utf8")).toBe(printedSchema());
  });
});

describe("schema/subgraph.graphql", () => {
  it("is exactly the subgraph SDL printed from the code (run `npm run schema:print` after a change)", () => {
    expect(readFileSync(SUBGRAPH_FILE, "utf8")).toBe(printedSubgraph());
  });
});
