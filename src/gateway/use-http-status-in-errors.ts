import type { ExecutionResult } from "graphql";
import { isAsyncIterable, mapAsyncIterator, type Plugin } from "graphql-yoga";
import { stringifyWithHttpStatus } from "./http-status.ts";

/**
 * Shows `extensions.http.status` on catalogue errors, and the request's ID on every error, in
 * every result yoga serialises: single results, batches, and each event of a stream.
 */
export function useHttpStatusInErrors(
  requestIdOf: (request: Request) => string | undefined = () => undefined,
): Plugin {
  return {
    onResultProcess({ request, result, setResult }) {
      const requestId = requestIdOf(request);
      const stringify = (value: ExecutionResult) => stringifyWithHttpStatus(value, requestId);
      if (isAsyncIterable(result)) {
        setResult(mapAsyncIterator(result, (value) => ({ ...value, stringify })));
        return;
      }
      if (Array.isArray(result)) {
        setResult(result.map((single) => ({ ...single, stringify })));
        return;
      }
      setResult({ ...result, stringify });
    },
  };
}
