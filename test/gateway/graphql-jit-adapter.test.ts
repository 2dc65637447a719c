import {
  buildSchema,
  execute,
  type GraphQLObjectType,
  Kind,
  type OperationDefinitionNode,
  parse,
} from "graphql";
import type { CompiledQuery } from "graphql-jit";
import { describe, expect, it } from "vitest";
import {
  compileVariableParsing,
  createJitCompiler,
  failToParseVariables,
  GRAPHQL_JIT_ADAPTER,
} from "../../src/gateway/preparation/graphql-jit-adapter.ts";
import { installedVersion, itRunsOnItsRelease } from "../support/adapter-pin.ts";

// What src/gateway/preparation/graphql-jit-adapter.ts relies on in graphql-jit beyond its package root, each
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

  it("keeps each item of a list in its place when an item rejects before those ahead of it", async () => {
    const schema = buildSchema("type Query { flat: [Int] nested: [[Int!]] }");
    const later = (turns: number, value: () => number) => {
      let settled = Promise.resolve();
      for (let turn = 0; turn < turns; turn++) settled = settled.then();
      return settled.then(value);
    };
    const gone = () => {
      throw new Error("gone");
    };
    // The last item rejects first: graphql-jit 0.8.9 alone answered [1, 2] for `flat`.
    const resolvers = {
      flat: () => [later(3, () => 1), later(4, () => 2), later(0, gone)],
      nested: () => [[later(3, () => 1), later(0, gone)], [later(2, () => 3)]],
    };
    const fields = (schema.getQueryType() as GraphQLObjectType).getFields();
    for (const [field, resolve] of Object.entries(resolvers)) {
      Object.assign(fields[field] ?? {}, { resolve });
    }
    const document = parse("{ flat nested }");

    const compiled = createJitCompiler()(schema, document) as CompiledQuery;
    const result = await compiled.query(undefined, {}, {});

    expect(JSON.parse(JSON.stringify(result)), name).toEqual({
      data: { flat: [1, 2, null], nested: [null, [3]] },
      errors: [
        { message: "gone", locations: [{ line: 1, column: 3 }], path: ["flat", 2] },
        { message: "gone", locations: [{ line: 1, column: 8 }], path: ["nested", 0, 1] },
      ],
    });
    expect(result.data).toEqual((await execute({ schema, document })).data);
  });
});
