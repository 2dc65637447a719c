import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLNonNull,
  type GraphQLOutputType,
  type GraphQLSchema,
  GraphQLString,
  getNullableType,
  isCompositeType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";

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

/** One place in the answer: the type there, and the selections made of it. */
interface Place {
  type: GraphQLOutputType;
  selections: readonly SelectionSetNode[];
}

const TYPENAME = new GraphQLNonNull(GraphQLString);

/** The shape of the operation `operationName` names in `document`, or undefined if none does. */
export function responseShape(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
): ResponseShape | undefined {
  const fragments = new Map<string, FragmentDefinitionNode>();
  let operation: OperationDefinitionNode | undefined;
  let operations = 0;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(definition.name.value, definition);
    } else if (definition.kind === Kind.OPERATION_DEFINITION) {
      operations += 1;
      if (operationName ? definition.name?.value === operationName : operations === 1) {
        operation = definition;
      }
    }
  }
  if (operation === undefined || (!operationName && operations > 1)) return undefined;
  const rootType = schema.getRootType(operation.operation);
  if (rootType === undefined || rootType === null) return undefined;
  const root: Place = { type: rootType, selections: [operation.selectionSet] };

  /** Each selection of `sets`, fragments expanded in place (each fragment once), in order. */
  function* fields(sets: readonly SelectionSetNode[]): Generator<FieldNode> {
    const expanded = new Set<string>();
    const walk = function* (set: SelectionSetNode): Generator<FieldNode> {
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) yield selection;
        else if (selection.kind === Kind.INLINE_FRAGMENT) yield* walk(selection.selectionSet);
        else if (!expanded.has(selection.name.value)) {
          expanded.add(selection.name.value);
          const fragment = fragments.get(selection.name.value);
          if (fragment) yield* walk(fragment.selectionSet);
        }
      }
    };
    for (const set of sets) yield* walk(set);
  }

  function fieldType(parent: GraphQLOutputType, name: string): GraphQLOutputType | undefined {
    if (name === "__typename") return TYPENAME;
    if (isObjectType(parent)) return parent.getFields()[name]?.type;
    if (!isCompositeType(parent)) return undefined;
    // An abstract type: each type it may be must agree, or the place's runtime type decides.
    const types = schema.getPossibleTypes(parent).map((type) => type.getFields()[name]?.type);
    const [first] = types;
    return first && types.every((type) => String(type) === String(first)) ? first : undefined;
  }

  function step(place: Place, key: string | number): Place | undefined {
    const type = getNullableType(place.type);
    if (typeof key === "number") {
      return isListType(type) ? { type: type.ofType, selections: place.selections } : undefined;
    }
    const nodes = [...fields(place.selections)].filter(
      (node) => (node.alias?.value ?? node.name.value) === key,
    );
    const first = nodes[0];
    const next = first && fieldType(type, first.name.value);
    if (next === undefined) return undefined;
    return { type: next, selections: nodes.flatMap((node) => node.selectionSet ?? []) };
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
      return [...new Set([...fields(place.selections)].map((n) => n.alias?.value ?? n.name.value))];
    },
  };
}
