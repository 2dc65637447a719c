import { collectSubFields } from "@graphql-tools/utils";
import type { FieldNode, GraphQLObjectType, GraphQLResolveInfo } from "graphql";
import { builder } from "./builder.ts";
import type { SchemaContext } from "./context.ts";
import { assertId, type IdKind, idRule } from "./ids.ts";

type Types = typeof builder.$inferSchemaTypes;

/**
 * Reads of a node's field that need only the node's ID, by field name. When the selection asks
 * for the field, its read starts beside the node's own GET instead of after it: one round trip
 * where there were two. Each must be the read the field's resolver makes (shared through the
 * operation's context), so the upstream sees it once.
 */
export type ReadsAlongside = Record<
  string,
  (id: string, context: SchemaContext) => Promise<unknown>
>;

/**
 * `Query.<kind>(id)`: one node by ID, checked for its prefix before any call, then loaded by the
 * type's DataLoader. Nullable: a NOT_FOUND leaves the operation's other fields intact.
 */
export function nodeByIdQuery<Shape>(
  kind: Exclude<IdKind, "property">,
  type: PothosSchemaTypes.ObjectRef<Types, string | Shape, Shape>,
  description: { noun: string; how: string; calls: { upstreamCalls: number } },
  alongside: ReadsAlongside = {},
) {
  builder.queryField(kind, (t) =>
    t.field({
      type,
      nullable: true,
      description: `${description.noun} by ID${description.how}. Null, with a NOT_FOUND error, when it does not exist.`,
      args: { id: t.arg.id({ required: true, extensions: idRule(kind) }) },
      extensions: description.calls,
      // The ID stands for the node: the type's DataLoader loads it (or answers NOT_FOUND). The
      // cast: Pothos cannot resolve its result type over a generic `Shape`; a string is valid.
      resolve: (_root, { id }, context, info) => {
        const checked = assertId(kind, id);
        for (const field of selectedFields(info, Object.keys(alongside))) {
          // The field's resolver awaits the same read and reports its failure; a node that does
          // not exist never resolves the field, so nothing is left unhandled here.
          alongside[field]?.(checked, context).catch(() => undefined);
        }
        return checked as never;
      },
    }),
  );
}

/** Which of `names` the field's selection asks for, honouring @skip/@include and @defer. */
function selectedFields(info: GraphQLResolveInfo, names: string[]): string[] {
  if (names.length === 0) return [];
  const { fields, patches } = collectSubFields(
    info.schema,
    info.fragments,
    info.variableValues,
    info.returnType as GraphQLObjectType,
    info.fieldNodes as FieldNode[],
  );
  const asked = new Set<string>();
  for (const map of [fields, ...patches.map((patch) => patch.fields)]) {
    for (const nodes of map.values()) for (const node of nodes) asked.add(node.name.value);
  }
  return names.filter((name) => asked.has(name));
}
