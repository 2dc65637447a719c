import { type GraphQLFieldResolver, type GraphQLSchema, isObjectType } from "graphql";

type Resolver = GraphQLFieldResolver<unknown, unknown>;
type Encode = (typename: string, id: string) => string;

/**
 * Pothos's relay plugin resolves every node's `id` in an async function, so each ID in an answer
 * (three per conversation of a dashboard page) costs a promise and the executor's handling of it.
 * The same encoding of the node's own ID resolver is done here at once when that resolver answers
 * at once, as all of ours do, and after it when it answers with a promise.
 */
export function resolveNodeIdsAtOnce<T extends GraphQLSchema>(schema: T, encode: Encode): T {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || !type.getInterfaces().some((node) => node.name === "Node")) {
      continue;
    }
    const options = type.extensions.pothosOptions as { id?: { resolve?: Resolver } } | undefined;
    const idOf = options?.id?.resolve;
    const field = type.getFields().id;
    if (!field || !idOf) continue;
    const name = type.name;
    field.resolve = (parent, args, context, info) => {
      const id = idOf(parent, args, context, info);
      if (typeof (id as { then?: unknown } | null)?.then !== "function") {
        return encode(name, String(id));
      }
      return Promise.resolve(id).then((resolved) => encode(name, String(resolved)));
    };
  }
  return schema;
}
