import type { ExecutionResult } from "graphql";
import { createGraphQLError, type Plugin } from "graphql-yoga";

/**
 * yoga refuses a batched request (a JSON array body) with "Batching is not supported.", which
 * names no way out (and Apollo's BatchHttpLink then reports a confusing length mismatch). The
 * refusal says which setting turns batching on, or what the limit is.
 */
export function useBatchRefusal(maxBatchSize: number): Plugin {
  const message =
    maxBatchSize > 0
      ? `A batch may hold at most ${maxBatchSize} operations (MAX_BATCH_SIZE): send fewer in one request.`
      : "Batched requests (a JSON array body) are off on this gateway: set MAX_BATCH_SIZE to accept that many operations in one request, or send one operation per request.";
  return {
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || !("errors" in result)) return;
      const errors = (result as ExecutionResult).errors ?? [];
      if (!errors.some((error) => /^Batching is (not supported|limited to)/.test(error.message))) {
        return;
      }
      setResult({
        ...(result as ExecutionResult),
        errors: errors.map((error) =>
          /^Batching is/.test(error.message)
            ? createGraphQLError(message, { extensions: error.extensions })
            : error,
        ),
      });
    },
  };
}
