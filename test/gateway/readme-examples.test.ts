import { readFileSync } from "node:fs";
import { type OperationDefinitionNode, parse, print } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./harness.ts";

/** Every operation in the README's "Example queries" section, in order. */
function readmeOperations(): OperationDefinitionNode[] {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const section = readme.split("## Example queries")[1]?.split("\n## ")[0] ?? "";
  const blocks = [...section.matchAll(/```graphql\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
  return blocks.flatMap((block) =>
    parse(block).definitions.filter(
      (definition): definition is OperationDefinitionNode =>
        definition.kind === "OperationDefinition",
    ),
  );
}

const operations = readmeOperations();
let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

describe("the README's example queries", () => {
  it("cover every root query and mutation field", () => {
    const rootFields = new Set(
      operations.flatMap((operation) =>
        operation.selectionSet.selections.flatMap((selection) =>
          selection.kind === "Field" ? [`${operation.operation}.${selection.name.value}`] : [],
        ),
      ),
    );
    const schema = harness.gateway.getEnveloped().schema;
    const expected = [
      ...Object.keys(schema.getQueryType()?.getFields() ?? {}).map((name) => `query.${name}`),
      ...Object.keys(schema.getMutationType()?.getFields() ?? {}).map((name) => `mutation.${name}`),
      ...Object.keys(schema.getSubscriptionType()?.getFields() ?? {}).map(
        (name) => `subscription.${name}`,
      ),
    ];
    expect([...rootFields].sort()).toEqual(expected.sort());
  });

  for (const [index, operation] of operations.entries()) {
    if (operation.operation === "subscription") continue; // run over SSE in subscriptions.test.ts
    const text = print(operation);
    it(`answers without errors: ${text.replace(/\s+/g, " ").slice(0, 90)}`, async () => {
      const response = await harness.graphql(text);
      expect(response.body.errors, `example #${index + 1}`).toBeUndefined();
      expect(response.status).toBe(200);
    });
  }
});
