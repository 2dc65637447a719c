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
