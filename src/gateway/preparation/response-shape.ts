import {
  type FieldNode,
  GraphQLNonNull,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  GraphQLString,
  getNullableType,
  isAbstractType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from "graphql";
import type { DocumentFacts } from "../shared/document-facts.ts";

type Path = readonly (string | number)[];

/**
 * What an operation's document and schema say of the places in its answer, so that errors can be
 * judged where the answer's data cannot say: under a null, which keys come first, and where
 * each error's own null lies. Undefined wherever the document does not say (a place no field
 * selects, or a field whose type differs among the types an abstract type may be).
 */
export interface ResponseShape {
  /** How many keys of `path` lead to the nearest place on it that may hold null; 0: `data`. */
  nullableDepth(path: Path): number | undefined;
  /** The response keys selected at `path`, in the order the answer gives them. */
  keysAt(path: Path): readonly string[] | undefined;
}

/** A field selected, and the type condition of the innermost fragment it was selected in. */
interface Selected {
  node: FieldNode;
  on: string | undefined;
}

/** One place in the answer: the type there, and the selections made of it. */
interface Place {
  type: GraphQLOutputType;
  selections: readonly SelectionSetNode[];
}

const TYPENAME = new GraphQLNonNull(GraphQLString);

/** The shape of the operation `operationName` selects in a document, or undefined if none. */
export function responseShape(
  schema: GraphQLSchema,
  document: DocumentFacts,
  operationName: string | null | undefined,
): ResponseShape | undefined {
  const operation = document.operation(operationName);
  if (operation === undefined) return undefined;
  const { fragments } = document;
  const rootType = schema.getRootType(operation.operation);
  if (rootType === undefined || rootType === null) return undefined;
  const root: Place = { type: rootType, selections: [operation.selectionSet] };

  /**
   * Each field selected in `sets`, fragments expanded in place (each fragment once), in order,
   * with the type condition of the innermost fragment it was selected in, if any.
   */
  function* fields(sets: readonly SelectionSetNode[]): Generator<Selected> {
    const expanded = new Set<string>();
    const walk = function* (set: SelectionSetNode, on: string | undefined): Generator<Selected> {
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) yield { node: selection, on };
        else if (selection.kind === Kind.INLINE_FRAGMENT) {
          yield* walk(selection.selectionSet, selection.typeCondition?.name.value ?? on);
        } else if (!expanded.has(selection.name.value)) {
          expanded.add(selection.name.value);
          const fragment = fragments.get(selection.name.value);
          if (fragment) yield* walk(fragment.selectionSet, fragment.typeCondition.name.value);
        }
      }
    };
    for (const set of sets) yield* walk(set, undefined);
  }

  /** The type of the field the selections name, as each type the place may be at runtime has it. */
  function fieldType(
    parent: GraphQLOutputType,
    selected: Selected[],
  ): GraphQLOutputType | undefined {
    const name = selected[0]?.node.name.value;
    if (name === undefined) return undefined;
    if (name === "__typename") return TYPENAME;
    if (isObjectType(parent)) return parent.getFields()[name]?.type;
    if (!isAbstractType(parent)) return undefined;
    // An abstract type: the types the fragments let it be must agree, or the runtime type decides.
    const runtime = schema
      .getPossibleTypes(parent)
      .filter((type) =>
        selected.some(({ on }) => on === undefined || on === type.name || isPossible(on, type)),
      );
    const types = runtime.flatMap((type) => type.getFields()[name]?.type ?? []);
    const [first] = types;
    return first && types.every((type) => String(type) === String(first)) ? first : undefined;
  }

  /** Whether a fragment on `on` applies to an object of `type`. */
  function isPossible(on: string, type: GraphQLObjectType): boolean {
    const condition = schema.getType(on);
    return isAbstractType(condition) && schema.isSubType(condition, type);
  }

  function step(place: Place, key: string | number): Place | undefined {
    const type = getNullableType(place.type);
    if (typeof key === "number") {
      return isListType(type) ? { type: type.ofType, selections: place.selections } : undefined;
    }
    const selected = [...fields(place.selections)].filter(
      ({ node }) => (node.alias?.value ?? node.name.value) === key,
    );
    const next = fieldType(type, selected);
    if (next === undefined) return undefined;
    return { type: next, selections: selected.flatMap(({ node }) => node.selectionSet ?? []) };
  }

  return {
    nullableDepth(path) {
      let place: Place | undefined = root;
      let depth = 0;
      for (let index = 0; index < path.length; index++) {
        place = step(place, path[index] as string | number);
        if (place === undefined) return undefined;
        if (!isNonNullType(place.type)) depth = index + 1;
      }
      return depth;
    },
    keysAt(path) {
      let place: Place | undefined = root;
      for (const key of path) {
        place = step(place, key);
        if (place === undefined) return undefined;
      }
      const keys = [...fields(place.selections)].map(
        ({ node }) => node.alias?.value ?? node.name.value,
      );
      return [...new Set(keys)];
    },
  };
}
