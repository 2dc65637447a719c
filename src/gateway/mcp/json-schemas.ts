import {
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  typeFromAST,
} from "graphql";

export type JsonSchema = { [keyword: string]: unknown };

/**
 * Every scalar of the schema as JSON Schema: strict clients drop a tool with an untyped property,
 * so a scalar missing here makes its operation no tool at all (catalogue.ts says which).
 */
const SCALARS: Record<string, JsonSchema> = {
  ID: { type: "string" },
  String: { type: "string" },
  // GraphQL's Int is 32-bit: a larger integer is no Int.
  Int: { type: "integer", minimum: -2147483648, maximum: 2147483647 },
  Float: { type: "number" },
  Boolean: { type: "boolean" },
  DateTime: {
    type: "string",
    format: "date-time",
    description: "An ISO 8601 (RFC 3339) date-time.",
  },
  JSONObject: { type: "object", description: "A JSON object." },
};

/** Thrown when a type cannot be stated in JSON Schema (an unmapped scalar). */
export class UnmappedType extends Error {}

/**
 * A schema that also admits null, for a nullable GraphQL type: `anyOf` branches of one `type`
 * each, the spelling strict clients (single-`type` dialects) map best.
 */
function orNull(schema: JsonSchema): JsonSchema {
  return { anyOf: [schema, { type: "null" }] };
}

function scalarOrEnum(type: GraphQLNamedType): JsonSchema | undefined {
  if (isScalarType(type)) {
    const schema = SCALARS[type.name];
    if (schema === undefined) throw new UnmappedType(`the scalar ${type.name} has no JSON Schema`);
    return { ...schema };
  }
  if (isEnumType(type)) {
    return {
      type: "string",
      enum: type.getValues().map((value) => value.name),
      ...(type.description ? { description: type.description } : {}),
    };
  }
  return undefined;
}

function inputSchema(type: GraphQLInputType, seen: readonly string[]): JsonSchema {
  if (isNonNullType(type)) return inputSchemaOfNullable(type.ofType, seen);
  return orNull(inputSchemaOfNullable(type, seen));
}

function inputSchemaOfNullable(type: GraphQLInputType, seen: readonly string[]): JsonSchema {
  if (isListType(type)) return { type: "array", items: inputSchema(type.ofType, seen) };
  const named = getNamedType(type);
  const leaf = scalarOrEnum(named);
  if (leaf) return leaf;
  if (!isInputObjectType(named)) throw new UnmappedType(`${named.name} is not an input type`);
  // A recursive input type stops at its second appearance: any object there.
  if (seen.includes(named.name)) return { type: "object" };
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of Object.values(named.getFields())) {
    const schema = inputSchema(field.type, [...seen, named.name]);
    properties[field.name] = field.description
      ? { ...schema, description: field.description }
      : schema;
    if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(field.name);
  }
  return {
    type: "object",
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    ...(named.description ? { description: named.description } : {}),
  };
}

/**
 * The tool's input: one property per variable; a non-null variable without a default is
 * required; nothing else is accepted.
 */
export function variablesSchema(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (type === undefined)
      throw new UnmappedType(`unknown type of $${definition.variable.name.value}`);
    const name = definition.variable.name.value;
    properties[name] = inputSchema(type, []);
    if (definition.type.kind === Kind.NON_NULL_TYPE && definition.defaultValue === undefined) {
      required.push(name);
    }
  }
  return {
    type: "object",
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

type Fragments = ReadonlyMap<string, FragmentDefinitionNode>;

function outputSchema(
  type: GraphQLOutputType,
  selection: SelectionSetNode | undefined,
  schema: GraphQLSchema,
  fragments: Fragments,
): JsonSchema {
  if (isNonNullType(type)) return outputOfNullable(type.ofType, selection, schema, fragments);
  return orNull(outputOfNullable(type, selection, schema, fragments));
}

function outputOfNullable(
  type: GraphQLOutputType,
  selection: SelectionSetNode | undefined,
  schema: GraphQLSchema,
  fragments: Fragments,
): JsonSchema {
  if (isListType(type))
    return { type: "array", items: outputSchema(type.ofType, selection, schema, fragments) };
  const named = getNamedType(type);
  const leaf = scalarOrEnum(named);
  if (leaf) return leaf;
  if (!selection) return { type: "object" };
  return {
    type: "object",
    properties: selectionProperties(named, selection, schema, fragments),
    ...(named.description ? { description: named.description } : {}),
  };
}

/**
 * The properties a selection answers, by response name. No `required`: `@include`, `@skip` and
 * fragments on abstract types may leave any of them out, and a schema that promised them would
 * refuse a true answer.
 */
function selectionProperties(
  parent: GraphQLNamedType,
  selection: SelectionSetNode,
  schema: GraphQLSchema,
  fragments: Fragments,
): Record<string, JsonSchema> {
  const properties: Record<string, JsonSchema> = {};
  for (const node of selection.selections) {
    if (node.kind === Kind.FIELD) {
      const name = node.alias?.value ?? node.name.value;
      if (node.name.value === "__typename") {
        properties[name] = { type: "string" };
        continue;
      }
      const field =
        isObjectType(parent) || isInterfaceType(parent)
          ? parent.getFields()[node.name.value]
          : undefined;
      // A field of one member type only (in a fragment on a union): any value.
      if (field === undefined) {
        properties[name] = {};
        continue;
      }
      const answer = outputSchema(field.type, node.selectionSet, schema, fragments);
      properties[name] = field.description ? { ...answer, description: field.description } : answer;
      continue;
    }
    const inner = node.kind === Kind.INLINE_FRAGMENT ? node : fragments.get(node.name.value);
    if (!inner) continue;
    const condition = inner.typeCondition
      ? (schema.getType(inner.typeCondition.name.value) ?? parent)
      : parent;
    Object.assign(
      properties,
      selectionProperties(condition, inner.selectionSet, schema, fragments),
    );
  }
  return properties;
}

/** What `data` of the operation holds: the tool's output schema. */
export function dataSchema(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Fragments,
): JsonSchema {
  const root = schema.getRootType(operation.operation);
  if (!root) throw new UnmappedType(`the schema has no ${operation.operation} type`);
  return {
    type: "object",
    properties: selectionProperties(root, operation.selectionSet, schema, fragments),
  };
}
