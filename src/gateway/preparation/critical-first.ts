import {
  type DirectiveNode,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
} from "graphql";
import { estimateUpstreamCalls } from "../admission/estimate-upstream-calls.ts";

const isCondition = (directive: DirectiveNode) =>
  directive.name.value === "skip" || directive.name.value === "include";

/** A query whose root fields run in another order than the document's, and the way back. */
export interface CriticalFirst {
  /** The document with the operation's root fields in the order they are to run. */
  readonly document: DocumentNode;
  /** Puts the result's root fields back in the document's order. */
  restore(result: ExecutionResult): ExecutionResult;
}

/**
 * The order a query's root fields run in: the field that leads to the most upstream calls first
 * (estimateUpstreamCalls, field by field), ties kept in the document's order. A list whose items
 * load more (conversations with their agents) has its answer soonest, so the calls that wait on
 * it start soonest. The upstream sees the same calls either way; only their order within the
 * first round changes, which matters wherever calls queue: the per-key connection bound, a
 * connection pool, or an upstream that serves requests one at a time.
 *
 * The order is decided once, when the query is compiled, from that run's variables: a later run
 * with other variables (another page size) keeps it. It changes when calls start, never an answer.
 *
 * Undefined when the order would not change, for a root selection other than a field (a
 * fragment), a directive other than `@skip`/`@include`, or a response key selected twice: those
 * keep the document's order.
 */
export function criticalFirst(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): CriticalFirst | undefined {
  if (operation.operation !== "query") return undefined;
  const fields: FieldNode[] = [];
  const keys = new Set<string>();
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) return undefined;
    if (!(selection.directives ?? []).every(isCondition)) return undefined;
    const key = selection.alias?.value ?? selection.name.value;
    // A key selected twice takes the place of its first occurrence that is not skipped.
    if (keys.has(key)) return undefined;
    keys.add(key);
    fields.push(selection);
  }
  if (fields.length < 2) return undefined;
  const calls = new Map<FieldNode, number>();
  try {
    for (const field of fields) {
      const alone: OperationDefinitionNode = {
        ...operation,
        selectionSet: { ...operation.selectionSet, selections: [field] },
      };
      calls.set(field, estimateUpstreamCalls({ schema, operation: alone, fragments, variables }));
    }
  } catch {
    return undefined; // arguments the estimate refuses: execution reports them, in any order
  }
  const ordered = [...fields].sort((a, b) => (calls.get(b) ?? 0) - (calls.get(a) ?? 0));
  if (ordered.every((field, index) => field === fields[index])) return undefined;
  const reordered: OperationDefinitionNode = {
    ...operation,
    selectionSet: { ...operation.selectionSet, selections: ordered },
  };
  return {
    document: {
      ...document,
      definitions: document.definitions.map((d) => (d === operation ? reordered : d)),
    },
    restore(result) {
      const data = result.data;
      if (data === null || data === undefined) return result;
      const inOrder: Record<string, unknown> = {};
      for (const key of keys) if (key in data) inOrder[key] = data[key];
      return { ...result, data: inOrder };
    },
  };
}
