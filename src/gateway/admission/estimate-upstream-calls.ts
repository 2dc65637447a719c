import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getArgumentValues,
  getNamedType,
  isAbstractType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";
import type { CursorKey } from "../../connections/cursor.ts";
import { validateConnectionArgs } from "../../connections/validate-args.ts";

/**
 * What a schema field declares about its upstream traffic, in its Pothos `extensions`:
 * `upstreamCalls` is the calls one resolution costs (or one per item of a list argument), and
 * `connection` marks a Relay connection whose page size multiplies what is selected inside it.
 */
export interface UpstreamCostExtensions {
  upstreamCalls?: number | { perItemOf: string; each: number };
  /**
   * A reference the items of a list may share (a conversation's agent): DataLoader loads each
   * distinct one once, so it is estimated at SHARED_PER_LIST loads per list, not one per item.
   */
  sharedByItems?: boolean;
  connection?: { defaultSize: number; forwardOnly?: boolean };
}

/**
 * Distinct shared references one list is estimated to load. Not an upper bound: a page of 100
 * items may name 100 agents. The runtime budget (MAX_UPSTREAM_CALLS real calls) covers the rest.
 */
export const SHARED_PER_LIST = 10;

export interface EstimateInput {
  schema: GraphQLSchema;
  operation: OperationDefinitionNode;
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  /** Coerced variable values. */
  variables: Record<string, unknown>;
  /** Told when the count reads a variable: an estimate that never does holds for any variables. */
  onVariableRead?: () => void;
  /** The gateway's cursor key: with it, a cursor it could not have issued refuses the operation. */
  cursorKey?: CursorKey;
}

/**
 * An upper bound of the upstream calls an operation can make, before it runs: each field's
 * declared cost times the page sizes of the connections around it (DataLoader de-duplication
 * can only make the real figure lower). Also checks connection bounds, so that a `first: 500`
 * fails before any upstream call. Throws the connection adapter's BAD_USER_INPUT errors.
 */
export function estimateUpstreamCalls(input: EstimateInput): number {
  const root = rootType(input.schema, input.operation);
  if (!root) return 0;
  return estimateSelection(input, input.operation.selectionSet, root, 1, new Set());
}

function rootType(schema: GraphQLSchema, operation: OperationDefinitionNode) {
  if (operation.operation === "query") return schema.getQueryType();
  if (operation.operation === "mutation") return schema.getMutationType();
  return schema.getSubscriptionType();
}

function estimateSelection(
  input: EstimateInput,
  selectionSet: SelectionSetNode,
  parent: GraphQLNamedType,
  multiplier: number,
  visitedFragments: ReadonlySet<string>,
  // Named fragments already spread at this field level (its inline and named fragments
  // included): graphql-js collects each once, and counting each spread again would let a few
  // hundred tokens of repeated spreads make this walk exponential in the client's document.
  spreadHere: Set<string> = new Set(),
): number {
  let total = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      total += estimateField(input, selection, parent, multiplier, visitedFragments);
      continue;
    }
    const fragment =
      selection.kind === Kind.FRAGMENT_SPREAD
        ? input.fragments.get(selection.name.value)
        : selection;
    if (!fragment) continue;
    if (selection.kind === Kind.FRAGMENT_SPREAD && visitedFragments.has(selection.name.value)) {
      continue; // a cycle; validation rejects it anyway
    }
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      if (spreadHere.has(selection.name.value)) continue;
      spreadHere.add(selection.name.value);
    }
    const visited =
      selection.kind === Kind.FRAGMENT_SPREAD
        ? new Set([...visitedFragments, selection.name.value])
        : visitedFragments;
    const condition = fragment.typeCondition?.name.value;
    const type = (condition && input.schema.getType(condition)) || parent;
    total += estimateSelection(input, fragment.selectionSet, type, multiplier, visited, spreadHere);
  }
  return total;
}

function estimateField(
  input: EstimateInput,
  node: FieldNode,
  parent: GraphQLNamedType,
  multiplier: number,
  visitedFragments: ReadonlySet<string>,
): number {
  const field = fieldOf(parent, node.name.value);
  if (!field) return 0; // __typename and introspection fields
  const cost = field.extensions as UpstreamCostExtensions;
  // Only a list argument or a page size changes the count: other fields' arguments (an ID, a
  // filter) are not coerced here, once per request, for nothing. Execution coerces them.
  const counted = cost.connection !== undefined || typeof cost.upstreamCalls === "object";
  if (counted && node.arguments?.some((argument) => holdsVariable(argument.value))) {
    input.onVariableRead?.();
  }
  const args = counted ? getArgumentValues(field, node, input.variables) : NO_ARGUMENTS;
  if (cost.sharedByItems) multiplier = Math.min(multiplier, SHARED_PER_LIST);
  let calls = 0;
  let childMultiplier = multiplier;
  if (typeof cost.upstreamCalls === "number") {
    calls = cost.upstreamCalls;
  } else if (cost.upstreamCalls) {
    const items = args[cost.upstreamCalls.perItemOf];
    const count = Array.isArray(items) ? items.length : 0;
    calls = count * cost.upstreamCalls.each;
    childMultiplier = multiplier * count;
  }
  if (cost.connection) {
    validateConnectionArgs(args, {
      forwardOnly: cost.connection.forwardOnly ?? false,
      cursorKey: input.cursorKey,
    });
    const size = numberOr(args.first, numberOr(args.last, cost.connection.defaultSize));
    childMultiplier = multiplier * size;
  }
  let total = multiplier * calls;
  if (node.selectionSet) {
    const type = getNamedType(field.type);
    total += estimateSelection(input, node.selectionSet, type, childMultiplier, visitedFragments);
  }
  return total;
}

const NO_ARGUMENTS: Record<string, unknown> = Object.freeze({});

function holdsVariable(value: ValueNode): boolean {
  if (value.kind === Kind.VARIABLE) return true;
  if (value.kind === Kind.LIST) return value.values.some(holdsVariable);
  if (value.kind === Kind.OBJECT) return value.fields.some((field) => holdsVariable(field.value));
  return false;
}

function fieldOf(type: GraphQLNamedType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (isObjectType(type) || isAbstractType(type)) {
    return "getFields" in type ? type.getFields()[name] : undefined;
  }
  return undefined;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" ? value : fallback;
}
