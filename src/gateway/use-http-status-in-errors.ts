import { isAsyncIterable, mapAsyncIterator, type Plugin } from "graphql-yoga";
import { stringifyWithHttpStatus } from "./http-status.ts";

/**
 * Shows `extensions.http.status` on catalogue errors in every result yoga serialises: single
 * results, batches, and each event of a stream (SSE subscriptions).
 */
export function useHttpStatusInErrors(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (isAsyncIterable(result)) {
        setResult(
          mapAsyncIterator(result, (value) => ({ ...value, stringify: stringifyWithHttpStatus })),
        );
        return;
      }
      const results = Array.isArray(result) ? result : [result];
      const withStatus = results.map((single) => ({
        ...single,
        stringify: stringifyWithHttpStatus,
      }));
      setResult(Array.isArray(result) ? withStatus : (withStatus[0] ?? result));
    },
  };
}
