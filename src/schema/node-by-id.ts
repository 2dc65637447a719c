import { builder } from "./builder.ts";
import { assertId, type IdKind } from "./ids.ts";

type Types = typeof builder.$inferSchemaTypes;

/**
 * `Query.<kind>(id)`: one node by ID, checked for its prefix before any call, then loaded by the
 * type's DataLoader. Nullable: a NOT_FOUND leaves the operation's other fields intact.
 */
export function nodeByIdQuery<Shape>(
  kind: Exclude<IdKind, "property">,
  type: PothosSchemaTypes.ObjectRef<Types, string | Shape, Shape>,
  description: { noun: string; how: string; calls: { upstreamCalls: number } },
) {
  builder.queryField(kind, (t) =>
    t.field({
      type,
      nullable: true,
      description: `${description.noun} by ID${description.how}. Null, with a NOT_FOUND error, when it does not exist.`,
      args: { id: t.arg.id({ required: true }) },
      extensions: description.calls,
      // The ID stands for the node: the type's DataLoader loads it (or answers NOT_FOUND). The
      // cast: Pothos cannot resolve its result type over a generic `Shape`; a string is valid.
      resolve: (_root, { id }) => assertId(kind, id) as never,
    }),
  );
}
