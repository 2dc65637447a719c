import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { hasVariableInScalarLiteral } from "../../src/gateway/preparation/scalar-literal-variables.ts";
import { schema } from "../../src/schema/index.ts";
import { subgraphSchema } from "../../src/schema/subgraph.ts";

const has = (s: typeof schema, text: string) => hasVariableInScalarLiteral(s, parse(text));

describe("which documents graphql-jit would read a variable of as missing", () => {
  it("a variable inside a custom scalar's literal, at any depth", () => {
    expect(
      has(
        subgraphSchema,
        'query ($id: ID!) { _entities(representations: [{ __typename: "Agent", id: $id }]) { __typename } }',
      ),
    ).toBe(true);
    expect(
      has(
        subgraphSchema,
        'query ($id: ID!) { _entities(representations: [{ __typename: "Agent", deep: [{ id: $id }] }]) { __typename } }',
      ),
    ).toBe(true);
  });

  it("not a variable of an input object's field or a list's item, nor a whole scalar", () => {
    expect(
      has(
        schema,
        "query ($a: ID) { conversations(first: 5, filter: { agentId: $a }) { totalCount } }",
      ),
    ).toBe(false);
    expect(has(schema, "query ($ids: [ID!]!) { nodes(ids: $ids) { id } }")).toBe(false);
    expect(has(schema, "query ($a: ID!) { nodes(ids: [$a, $a]) { id } }")).toBe(false);
    expect(
      has(subgraphSchema, "query ($r: [_Any!]!) { _entities(representations: $r) { __typename } }"),
    ).toBe(false);
  });
});
