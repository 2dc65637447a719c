import {
  BREAK,
  type DocumentNode,
  type GraphQLSchema,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from "graphql";

/**
 * Whether a variable stands inside the literal of a custom scalar, e.g. `_entities`'
 * `[{ __typename: "Agent", id: $id }]` (`_Any`): graphql-js hands the variables to the scalar's
 * `parseLiteral`, graphql-jit does not, so the compiled run would read the variable as missing.
 */
export function hasVariableInScalarLiteral(schema: GraphQLSchema, document: DocumentNode): boolean {
  const typeInfo = new TypeInfo(schema);
  let found = false;
  // Literals nested in an argument's value (objects and lists), innermost last.
  let depth = 0;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      ObjectValue: { enter: () => void depth++, leave: () => void depth-- },
      ListValue: { enter: () => void depth++, leave: () => void depth-- },
      Variable() {
        // Inside a scalar's literal TypeInfo knows no input type: the scalar parses it whole.
        if (depth === 0 || typeInfo.getInputType()) return undefined;
        found = true;
        return BREAK;
      },
    }),
  );
  return found;
}
