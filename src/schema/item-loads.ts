import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLResolveInfo,
  Kind,
  type SelectionSetNode,
} from "graphql";

/**
 * Which of a page's per-item loads the operation asks for, read from the connection field's
 * selection: `agent` loads each item's agent, `contact { stats }` each item's contact stats.
 * Read so a page can start those loads as soon as its items are known, before the items' fields
 * are resolved one by one. A selection this reading is not sure of (a directive on the way, such
 * as `@skip`, `@include` or `@stream`) counts as not asked: starting a load the operation would
 * not make is a call too many, while missing one only leaves it to the item's own field.
 */
export interface ItemLoads {
  agent: boolean;
  contactStats: boolean;
}

const NONE: ItemLoads = { agent: false, contactStats: false };

/** The item loads a connection field's selection asks for (`nodes` or `edges { node }`). */
export function itemLoadsOf(info: Pick<GraphQLResolveInfo, "fieldNodes" | "fragments">): ItemLoads {
  const items: SelectionSetNode[] = [];
  for (const field of info.fieldNodes) {
    for (const inner of fieldsOf(field.selectionSet, info.fragments)) {
      if (inner.name.value === "nodes" && inner.selectionSet) items.push(inner.selectionSet);
      if (inner.name.value !== "edges") continue;
      for (const edgeField of fieldsOf(inner.selectionSet, info.fragments)) {
        if (edgeField.name.value === "node" && edgeField.selectionSet) {
          items.push(edgeField.selectionSet);
        }
      }
    }
  }
  if (items.length === 0) return NONE;
  const loads = { agent: false, contactStats: false };
  for (const item of items) {
    for (const field of fieldsOf(item, info.fragments)) {
      if (field.name.value === "agent") loads.agent = true;
      if (field.name.value !== "contact") continue;
      for (const contactField of fieldsOf(field.selectionSet, info.fragments)) {
        if (contactField.name.value === "stats") loads.contactStats = true;
      }
    }
  }
  return loads;
}

/**
 * The fields a selection set surely selects: fragments expanded, anything under a directive left
 * out. Validation has ruled out fragment cycles, so the walk ends.
 */
function fieldsOf(
  set: SelectionSetNode | undefined,
  fragments: Record<string, FragmentDefinitionNode>,
): FieldNode[] {
  const fields: FieldNode[] = [];
  const walk = (selections: SelectionSetNode | undefined) => {
    for (const selection of selections?.selections ?? []) {
      if (selection.directives?.length) continue;
      if (selection.kind === Kind.FIELD) fields.push(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
      else walk(fragments[selection.name.value]?.selectionSet);
    }
  };
  walk(set);
  return fields;
}
