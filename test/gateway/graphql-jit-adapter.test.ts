import { buildSchema, Kind, type OperationDefinitionNode, parse } from "graphql";
import { describe, expect, it } from "vitest";
import {
  compileVariableParsing,
  failToParseVariables,
  GRAPHQL_JIT_ADAPTER,
} from "../../src/gateway/graphql-jit-adapter.ts";
import { installedVersion, itRunsOnItsRelease } from "../support/adapter-pin.ts";

// What src/gateway/graphql-jit-adapter.ts relies on in graphql-jit beyond its package root, each
// fact held here and named after the adapter, so an upgrade that moves one fails first.
const { name } = GRAPHQL_JIT_ADAPTER;
describe(`${name} (graphql-jit ${installedVersion("graphql-jit")})`, () => {
  itRunsOnItsRelease(GRAPHQL_JIT_ADAPTER, "graphql-jit");

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
