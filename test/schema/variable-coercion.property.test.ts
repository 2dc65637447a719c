import fc from "fast-check";
import {
  type GraphQLInputType,
  GraphQLList,
  type GraphQLNamedType,
  GraphQLNonNull,
  getVariableValues,
  isEnumType,
  isInputObjectType,
  isInputType,
  isListType,
  isNonNullType,
  isScalarType,
  Kind,
  type OperationDefinitionNode,
  parse,
  type TypeNode,
  type VariableDefinitionNode,
} from "graphql";
import { describe, expect, it } from "vitest";
import {
  compiledVariablesOf,
  failToParseVariables,
} from "../../src/gateway/admission/compiled-variables.ts";
import { schema } from "../../src/schema/index.ts";

// The judge of variables (src/gateway/admission/use-variable-errors.ts) takes graphql-jit's
// compiled coercion where compiledVariablesOf gives it, and graphql-js's otherwise: that holds
// only if every value jit accepts there, graphql-js accepts too, coerced to the same values.
const inputTypes = Object.values(schema.getTypeMap()).filter(
  (type): type is GraphQLNamedType & GraphQLInputType =>
    !type.name.startsWith("__") && isInputType(type),
);

/** Values near what each type accepts, and near misses: wrong kinds, bounds, unknown fields. */
function valueNear(type: GraphQLNamedType, depth: number): fc.Arbitrary<unknown> {
  const anyJson = fc.jsonValue({ maxDepth: 2 });
  if (isEnumType(type)) {
    return fc.oneof(fc.constantFrom(...type.getValues().map((v) => v.name)), fc.string(), anyJson);
  }
  if (isInputObjectType(type)) {
    if (depth > 2) return anyJson;
    const fields = Object.values(type.getFields());
    const record = fc.dictionary(
      fc.constantFrom(...fields.map((field) => field.name), "unknownField"),
      fc.oneof(
        ...fields.map((field) => wrapped(field.type, depth + 1)),
        fc.constant(null),
        anyJson,
      ),
      { maxKeys: fields.length + 1 },
    );
    return fc.oneof(record, record, anyJson);
  }
  if (isScalarType(type)) {
    return fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1.5, -0, Number.MAX_VALUE, "12", "1e3"),
      fc.double(),
      fc.boolean(),
      fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
      fc.constantFrom("2026-11-26", "2026-11-26T10:00:00Z", "2026-11-26T10:00:00+01:00", "now"),
      anyJson,
    );
  }
  return anyJson;
}

/** A value for a possibly wrapped type: lists of values, a lone value or null for a list. */
function wrapped(type: GraphQLInputType, depth: number): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return fc.oneof(wrapped(type.ofType, depth), fc.constant(null));
  if (isListType(type)) {
    const item = wrapped(type.ofType as GraphQLInputType, depth);
    return fc.oneof(fc.array(item, { maxLength: 3 }), item, fc.constant(null));
  }
  return valueNear(type, depth);
}

/** The schema's type for a written type (`[ID!]!` and the like). */
function definitionType(node: TypeNode): GraphQLInputType {
  if (node.kind === Kind.NON_NULL_TYPE) return new GraphQLNonNull(definitionType(node.type));
  if (node.kind === Kind.LIST_TYPE) return new GraphQLList(definitionType(node.type));
  return schema.getType(node.name.value) as GraphQLInputType;
}

/** One variable `$v` of an input type of the schema, wrapped, and inputs for it. */
const declared = fc
  .record({
    type: fc.constantFrom(...inputTypes),
    wrap: fc.constantFrom("T", "T!", "[T]", "[T!]", "[T!]!", "[T]!"),
    defaultValue: fc.constantFrom("", " = null", " = 3", ' = "x"', " = true", " = []"),
  })
  .chain(({ type, wrap, defaultValue }) => {
    const text = `${wrap.replace("T", type.name)}${defaultValue}`;
    const operation = parse(`query ($v: ${text}) { __typename }`)
      .definitions[0] as OperationDefinitionNode;
    const definitions = operation.variableDefinitions ?? [];
    const value = wrapped(definitionType((definitions[0] as VariableDefinitionNode).type), 0);
    return fc.record({
      operation: fc.constant(operation),
      inputs: fc.oneof(
        value.map((v) => ({ v })),
        fc.constant({}),
        fc.record({ v: value, other: fc.jsonValue() }),
      ),
    });
  });

describe("graphql-jit's variable coercion, against graphql-js's", () => {
  it("accepts only what graphql-js accepts, coerced to the same values, where it is used", () => {
    let compiled = 0;
    fc.assert(
      fc.property(declared, ({ operation, inputs }) => {
        const parse = compiledVariablesOf(schema, operation);
        if (parse === null) return;
        compiled += 1;
        const jit = parse(inputs);
        const js = getVariableValues(schema, operation.variableDefinitions ?? [], inputs);
        if (!failToParseVariables(jit)) {
          expect(js.errors).toBeUndefined();
          expect(jit.coerced).toEqual(js.coerced);
        }
      }),
      { numRuns: 3000 },
    );
    // Most generated operations are of scalars and enums: the property saw them.
    expect(compiled).toBeGreaterThan(1000);
  });

  it("is not used for an input object, where jit takes an array that graphql-js refuses", () => {
    const operation = parse("query ($v: ConversationFilter) { __typename }")
      .definitions[0] as OperationDefinitionNode;
    expect(compiledVariablesOf(schema, operation)).toBeNull();
  });
});
