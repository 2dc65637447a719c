import { isAsyncIterable, type Plugin } from "graphql-yoga";
import { stringifyWithHttpStatus } from "./http-status.ts";

/** Shows `extensions.http.status` on catalogue errors in every single (non-streamed) result. */
export function useHttpStatusInErrors(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (isAsyncIterable(result)) return;
      const results = Array.isArray(result) ? result : [result];
      const withStatus = results.map((single) => ({
        ...single,
        stringify: stringifyWithHttpStatus,
      }));
      setResult(Array.isArray(result) ? withStatus : (withStatus[0] ?? result));
    },
  };
}
