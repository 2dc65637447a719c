import { type ExecutionResult, GraphQLError, type Source, type SourceLocation } from "graphql";

/**
 * A compiled run's result with errors, in the shape graphql-js gives it, so that masking, the
 * catalogue, the upstream report and serialization treat it exactly as an interpreted run's:
 * `errors` before `data`, and each error as graphql-js's `locatedError` makes it. graphql-jit's
 * own errors carry no `extensions` object, no source or positions, and no wrapped error for a
 * null in a non-null field, each of which the gateway reads.
 */
export function asGraphqlJsResult(
  result: ExecutionResult,
  source: Source | undefined,
): ExecutionResult {
  if (!result.errors?.length) return result;
  const errors = result.errors.map((error) => asGraphqlJsError(error, source));
  const { data, extensions } = result;
  return extensions === undefined ? { errors, data } : { errors, data, extensions };
}

/**
 * A field's error as graphql-js makes it: an error its thrower located (one with a path) as
 * thrown; any other wraps what was thrown, and a null in a non-null field is a plain Error.
 */
function asGraphqlJsError(error: GraphQLError, source: Source | undefined): GraphQLError {
  if (error.path === undefined) return error;
  const original = error.originalError ?? new Error(error.message);
  if (original instanceof GraphQLError && Array.isArray(original.path)) return original;
  const own = original instanceof GraphQLError ? original : undefined;
  const ownPlace = own?.nodes !== undefined || own?.positions !== undefined;
  return new GraphQLError(original.message, {
    nodes: own?.nodes,
    source: ownPlace ? own?.source : source,
    positions: ownPlace ? own?.positions : positionsOf(error.locations, source),
    path: error.path,
    originalError: original,
  });
}

/** The character offsets of `locations` in `source`: what graphql-js's `getLocation` inverts. */
function positionsOf(
  locations: readonly SourceLocation[] | undefined,
  source: Source | undefined,
): number[] | undefined {
  if (locations === undefined || source === undefined) return undefined;
  const lineStarts = [0];
  for (const match of source.body.matchAll(/\r\n|[\n\r]/g)) {
    lineStarts.push(match.index + match[0].length);
  }
  return locations.map(({ line, column }) => (lineStarts[line - 1] ?? 0) + column - 1);
}

/**
 * Whether graphql-jit's result, its errors in response order (error-order.ts), is the one
 * graphql-js gives whatever order its promises settle in: when each null an error leaves in the
 * answer (the nearest null on its path) holds that error alone. Then graphql-js ran every field
 * graphql-jit ran and records the same errors. Where two errors reach one null, or one lies under
 * another's null, graphql-js records one, or some, by the order its promises settle in, where
 * graphql-jit records them all; and where the answer is null, graphql-jit records one, or some:
 * graphql-js answers those (test/execution/jit-errors.property.test.ts).
 */
export function answersAsGraphqlJs(result: ExecutionResult): boolean {
  const errors = result.errors;
  if (errors === undefined || errors.length === 0) return true;
  if (errors.length === 1 && errors[0]?.path === undefined) return true;
  // graphql-jit stops recording at the first error that nulls the whole answer: it may have left
  // out an error graphql-js records.
  if (result.data === null || result.data === undefined) return false;
  const nulls = new Set<string>();
  for (const { path } of errors) {
    const depth = path === undefined ? undefined : nearestNull(result.data, path);
    // An error without a place, or beside a value: not a result graphql-js gives.
    if (depth === undefined) return false;
    const place = JSON.stringify(path?.slice(0, depth));
    if (nulls.has(place)) return false;
    nulls.add(place);
  }
  return true;
}

/** How many keys of `path` lead to the first null (or absent) value along it in `data`, if any. */
function nearestNull(data: unknown, path: readonly (string | number)[]): number | undefined {
  let value = data;
  let depth = 0;
  while (value !== null && value !== undefined) {
    if (depth === path.length) return undefined;
    value = (value as Record<string | number, unknown>)[path[depth] as string | number];
    depth += 1;
  }
  return depth;
}
