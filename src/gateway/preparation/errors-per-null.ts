import type { ExecutionResult, GraphQLError } from "graphql";
import type { ResponseShape } from "./response-shape.ts";

/**
 * The result with one error for each null its errors leave, whichever runtime ran it
 * (docs/operations.md): where several errors null one place, the first in response order; an
 * error whose own null lies inside a null another error made is left out, as its place is not
 * in the answer. graphql-js records one error per null, which one by the order its promises
 * settle in, and the errors under a null that settled before it; graphql-jit records them all.
 * One rule over both makes the answer the same whatever ran it and in whatever order, but for
 * which of several errors racing to one null graphql-js names. `errors` must be in response
 * order (error-order.ts).
 */
export function onePerNull(result: ExecutionResult, shape: ResponseShape): ExecutionResult {
  const errors = result.errors;
  if (errors === undefined || errors.length < 2 || result.data === undefined) return result;
  /** For each null errors leave, by its path: the error kept there, or the first seen there. */
  const nulls = new Map<string, { kept?: GraphQLError; first: GraphQLError }>();
  /** The errors the rule judges, each with its null; the others are kept as they are. */
  const judged = new Map<GraphQLError, string>();
  for (const error of errors) {
    const { path } = error;
    const outer = path === undefined ? undefined : outermostNull(result.data, path);
    // An error without a place, or beside a value, is not this rule's to judge.
    if (path === undefined || outer === undefined) continue;
    const place = JSON.stringify(path.slice(0, outer));
    judged.set(error, place);
    const seen = nulls.get(place) ?? { first: error };
    nulls.set(place, seen);
    // Its own null is that null: one of its causes. The document cannot say: taken as one.
    const own = shape.nullableDepth(path);
    if (seen.kept === undefined && (own === undefined || own === outer)) seen.kept = error;
  }
  const answered = errors.filter((error) => {
    const place = judged.get(error);
    if (place === undefined) return true;
    const { kept, first } = nulls.get(place) as { kept?: GraphQLError; first: GraphQLError };
    return error === (kept ?? first);
  });
  return answered.length === errors.length ? result : { ...result, errors: answered };
}

/** How many keys of `path` lead to the first null (or absent) value along it, if any. */
function outermostNull(data: unknown, path: readonly (string | number)[]): number | undefined {
  let value = data;
  let depth = 0;
  while (value !== null && value !== undefined) {
    if (depth === path.length) return undefined;
    value = (value as Record<string | number, unknown>)[path[depth] as string | number];
    depth += 1;
  }
  return depth;
}
