import {
  type GraphQLField,
  type GraphQLSchema,
  getNamedType,
  isInterfaceType,
  isObjectType,
} from "graphql";

/**
 * The root fields an operation may select without a key (introspection's `__schema`, `__type`
 * and `__typename` need none either), each with the reason. Every other root field needs one,
 * whatever its cost estimate says: a field that forgot to declare its calls must not open a
 * keyless way upstream.
 */
export const KEYLESS_ROOT_FIELDS: Readonly<Record<string, string>> = {
  "Query._service": "a router or registry reads the subgraph's SDL before it holds any key",
};

/** Whether `Type.field`, a root field, may run without a key. */
export function isKeylessRootField(typeName: string, fieldName: string): boolean {
  return (
    fieldName.startsWith("__") || Object.hasOwn(KEYLESS_ROOT_FIELDS, `${typeName}.${fieldName}`)
  );
}

/** Thrown at schema build: a field that may reach the upstream and declares no cost. */
export class UndeclaredCostError extends Error {}

/**
 * Every field that may reach the upstream declares its calls (`upstreamCalls`, 0 included):
 * each root field, and each field that leads to a node, which may be loaded by its ID. The cost
 * limit reads the declarations, and a missing one would count 0 — so the build refuses it.
 * A connection's `edges`/`nodes` are the connection field's own page, declared on that field.
 */
export function assertCostsDeclared(schema: GraphQLSchema): GraphQLSchema {
  const node = schema.getType("Node");
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
  const missing: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    const isRoot = roots.includes(type);
    if (!isRoot && /(Connection|Edge)$/.test(type.name)) continue;
    for (const field of Object.values(type.getFields()) as GraphQLField<unknown, unknown>[]) {
      if (field.name.startsWith("__")) continue;
      const target = getNamedType(field.type);
      const leadsToNode =
        isInterfaceType(node) &&
        (target === node || (isObjectType(target) && target.getInterfaces().includes(node)));
      if (!isRoot && !leadsToNode) continue;
      if (!Object.hasOwn(field.extensions ?? {}, "upstreamCalls")) {
        missing.push(`${type.name}.${field.name}`);
      }
    }
  }
  if (missing.length > 0) {
    throw new UndeclaredCostError(
      `schema: ${missing.join(", ")} may reach the upstream and declare no upstreamCalls (callsOf, connectionOf, or upstreamCalls: 0 with the reason)`,
    );
  }
  return schema;
}
