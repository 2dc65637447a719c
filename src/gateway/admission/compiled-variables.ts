import {
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isScalarType,
  type OperationDefinitionNode,
  typeFromAST,
} from "graphql";
import {
  type CoercedVariableValues,
  compileVariableParsing,
} from "../preparation/graphql-jit-adapter.ts";

export { failToParseVariables } from "../preparation/graphql-jit-adapter.ts";

export type VariableParser = (inputs: Record<string, unknown>) => CoercedVariableValues;

/**
 * Per operation node: undefined until asked, null where graphql-js must coerce. An operation node
 * is parsed by one gateway's yoga and runs against its one schema, so the node alone is the key.
 */
const parsers = new WeakMap<OperationDefinitionNode, VariableParser | null>();

/**
 * graphql-jit's compiled coercion of an operation's variables (what its compiled queries run),
 * where graphql-js's getVariableValues walks the types again on every request. Only for
 * variables of scalars and enums, lists of them included: jit accepts an array for an input
 * object, which graphql-js refuses (test/schema/variable-coercion.property.test.ts holds jit to
 * graphql-js on every type it is given).
 */
export function compiledVariablesOf(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
): VariableParser | null {
  let parser = parsers.get(operation);
  if (parser === undefined) {
    const definitions = operation.variableDefinitions ?? [];
    const simple = definitions.every((definition) => {
      const type = typeFromAST(schema, definition.type);
      const named = type && getNamedType(type);
      return named !== undefined && (isScalarType(named) || isEnumType(named));
    });
    parser = simple ? compileVariableParsing(schema, definitions) : null;
    parsers.set(operation, parser);
  }
  return parser;
}
