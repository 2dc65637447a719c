import { readFileSync } from "node:fs";
import { buildSchema, Kind, type OperationDefinitionNode, parse } from "graphql";
import { describe, expect, it } from "vitest";
import {
  compileVariableParsing,
  failToParseVariables,
  GRAPHQL_JIT_ADAPTER,
} from "../../src/gateway/graphql-jit-adapter.ts";

// What src/gateway/graphql-jit-adapter.ts relies on in graphql-jit beyond its package root, each
// fact held here and named after the adapter, so an upgrade that moves one fails first.
const { name } = GRAPHQL_JIT_ADAPTER;
const json = (path: string) =>
  JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8")) as {
    version: string;
    dependencies: Record<string, string>;
  };
const installed = json("../../node_modules/graphql-jit/package.json").version;

describe(`${name} (graphql-jit ${installed})`, () => {
  it("runs on the graphql-jit release it was written against, pinned exactly", () => {
    expect(json("../../package.json").dependencies["graphql-jit"], `${name}: the pin`).toBe(
      GRAPHQL_JIT_ADAPTER.writtenAgainst,
    );
    expect(
      installed,
      `${name} was written against graphql-jit ${GRAPHQL_JIT_ADAPTER.writtenAgainst}: check what it relies on, then move its version`,
    ).toBe(GRAPHQL_JIT_ADAPTER.writtenAgainst);
  });

  it("compiles a coercion of variables that coerces, and reports what it cannot", () => {
    const schema = buildSchema("type Query { a(n: Int!): Int }");
    const operation = parse("query Q($n: Int!) { a(n: $n) }")
      .definitions[0] as OperationDefinitionNode;
    expect(operation.kind).toBe(Kind.OPERATION_DEFINITION);
    const parse_ = compileVariableParsing(schema, operation.variableDefinitions ?? []);
    const good = parse_({ n: 3 });
    expect(failToParseVariables(good), `${name}: a good value parses`).toBeFalsy();
    expect((good as { coerced: unknown }).coerced, `${name}: the coerced values`).toEqual({ n: 3 });
    expect(failToParseVariables(parse_({ n: "x" })), `${name}: a bad value fails`).toBeTruthy();
  });
});
