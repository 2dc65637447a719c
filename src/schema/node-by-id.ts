import { collectSubFields } from "@graphql-tools/utils";
import {
  type FieldNode,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  Kind,
  type SelectionNode,
} from "graphql";
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

/**
 * The answers of `selectedFields` for a selection with no directive at its level: they depend on
 * the document alone, and a compiled query hands its resolvers the same field nodes every time.
 */
const documentAnswers = new WeakMap<readonly FieldNode[], string[]>();

/** Which of `names` the field's selection asks for, honouring @skip/@include and @defer. */
function selectedFields(info: GraphQLResolveInfo, names: string[]): string[] {
  if (names.length === 0) return [];
  const known = documentAnswers.get(info.fieldNodes);
  if (known !== undefined) return known;
  const asked = collectedNames(info);
  const answer = names.filter((name) => asked.has(name));
  if (withoutDirectives(info)) documentAnswers.set(info.fieldNodes, answer);
  return answer;
}

function collectedNames(info: GraphQLResolveInfo): Set<string> {
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
  return asked;
}

/** Whether no selection at the field's level (its fragments' included) carries a directive. */
function withoutDirectives(info: GraphQLResolveInfo): boolean {
  const seen = new Set<string>();
  const level = (selections: readonly SelectionNode[]): boolean =>
    selections.every((selection) => {
      if (selection.directives?.length) return false;
      if (selection.kind === Kind.FIELD) return true;
      if (selection.kind === Kind.INLINE_FRAGMENT) return level(selection.selectionSet.selections);
      const name = selection.name.value;
      if (seen.has(name)) return true;
      seen.add(name);
      const fragment = info.fragments[name];
      return fragment !== undefined && !fragment.directives?.length
        ? level(fragment.selectionSet.selections)
        : fragment === undefined;
    });
  return info.fieldNodes.every((node) => level(node.selectionSet?.selections ?? []));
}
