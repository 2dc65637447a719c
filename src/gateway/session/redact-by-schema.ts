import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  getOperationAST,
  isInterfaceType,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from "graphql";
import { isGatewayIssued } from "../../schema/gateway-issued.ts";
import { isJsonObject } from "../../upstream/json.ts";
import type { KeyRedactor } from "../../upstream/key-redaction.ts";

/** Where a value stands in the operation: the types it may have and the selections made on it. */
interface Level {
  types: readonly GraphQLNamedType[];
  selections: readonly SelectionSetNode[];
}

interface Walk {
  redactor: KeyRedactor;
  schema: GraphQLSchema;
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
}

/**
 * An answer's data with every string redacted except the values of gateway-issued fields: the
 * operation's selections say which field each response key is, whatever its alias or fragment.
 * A key is left whole only when every field it may stand for is gateway-issued.
 */
export function answerRedaction(
  redactor: KeyRedactor,
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
) {
  const operation = getOperationAST(document, operationName);
  const root = operation && schema.getRootType(operation.operation);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(definition.name.value, definition);
    }
  }
  const walk: Walk = { redactor, schema, fragments };
  const top: Level = root ? { types: [root], selections: [operation.selectionSet] } : NOWHERE;
  return {
    /** Redacts the data of a whole answer, or of an incremental part at `path`. */
    data<T>(data: T, path: ReadonlyArray<string | number> = []): T {
      let level = top;
      for (const key of path) if (typeof key === "string") level = childLevel(walk, level, key);
      return redactValue(walk, level, data);
    },
  };
}

/** Nothing known about where a value stands: everything in it is redacted. */
const NOWHERE: Level = { types: [], selections: [] };

function redactValue<T>(walk: Walk, level: Level, value: T): T {
  if (typeof value === "string") return walk.redactor.text(value) as T;
  if (Array.isArray(value)) return value.map((item) => redactValue(walk, level, item)) as T;
  if (!isJsonObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const fields = fieldsAt(walk, level, key);
    const issued = fields.length > 0 && fields.every(isGatewayIssued);
    copy[walk.redactor.text(key)] = issued
      ? item
      : redactValue(walk, childLevel(walk, level, key), item);
  }
  return copy as T;
}

function childLevel(walk: Walk, level: Level, key: string): Level {
  const types = fieldsAt(walk, level, key).map((field) => getNamedType(field.type));
  const selections: SelectionSetNode[] = [];
  for (const { selectionSet } of selectionsOf(walk, level, key)) {
    if (selectionSet !== undefined) selections.push(selectionSet);
  }
  return { types, selections };
}

/** The field definitions a response key may stand for at this level. */
function fieldsAt(walk: Walk, level: Level, key: string): GraphQLField<unknown, unknown>[] {
  const found: GraphQLField<unknown, unknown>[] = [];
  for (const { name, on } of selectionsOf(walk, level, key)) {
    for (const type of on ?? level.types) {
      if (!isObjectType(type) && !isInterfaceType(type)) continue;
      const field = type.getFields()[name];
      if (field !== undefined) found.push(field);
    }
  }
  return found;
}

/** Every field selection answering to a response key, with the fragment type it sits under. */
function selectionsOf(walk: Walk, level: Level, key: string) {
  const found: Array<{ name: string; on?: GraphQLNamedType[]; selectionSet?: SelectionSetNode }> =
    [];
  const visit = (set: SelectionSetNode, on: GraphQLNamedType[] | undefined, seen: Set<string>) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if ((selection.alias ?? selection.name).value !== key) continue;
        found.push({ name: selection.name.value, on, selectionSet: selection.selectionSet });
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(
          selection.selectionSet,
          typeNamed(walk, selection.typeCondition?.name.value) ?? on,
          seen,
        );
      } else {
        const name = selection.name.value;
        const fragment = walk.fragments.get(name);
        if (fragment === undefined || seen.has(name)) continue;
        visit(
          fragment.selectionSet,
          typeNamed(walk, fragment.typeCondition.name.value),
          new Set(seen).add(name),
        );
      }
    }
  };
  for (const set of level.selections) visit(set, undefined, new Set());
  return found;
}

function typeNamed(walk: Walk, name: string | undefined): GraphQLNamedType[] | undefined {
  const type = name === undefined ? undefined : walk.schema.getType(name);
  return type === undefined || type === null ? undefined : [type];
}
