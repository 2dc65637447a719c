import type { ExecutionResult } from "graphql";
import { isAsyncIterable, mapAsyncIterator, type Plugin } from "graphql-yoga";
import { ERROR_CODES, isGatewayErrorCode } from "../../errors.ts";
import { stringifyWithHttpStatus } from "../http-status.ts";
import type { RequestIdContext } from "./request-id.ts";

/**
 * Shows `extensions.http.status` on catalogue errors, and the request's ID on every error, in
 * every result yoga serialises: single results, batches, and each event of a stream.
 */
export function useHttpStatusInErrors(): Plugin<Record<string, never>, RequestIdContext> {
  return {
    onResultProcess({ result, setResult, serverContext }) {
      const requestId = serverContext.requestId;
      const stringify = (value: ExecutionResult) => stringifyWithHttpStatus(value, requestId);
      if (isAsyncIterable(result)) {
        setResult(mapAsyncIterator(result, (value) => ({ ...value, stringify })));
        return;
      }
      if (Array.isArray(result)) {
        setResult(result.map((single) => ({ ...single, stringify })));
        return;
      }
      setResult({ ...withRequestStatus(result), stringify });
    },
  };
}

/**
 * An operation refused before it ran (no data) with a catalogue error answers that error's status,
 * the one its `extensions.http.status` shows, whatever the client accepts: yoga would answer 200
 * to a client that accepts only `application/json` for a refusal made during validation (a depth
 * or alias limit), and the error would contradict the response (docs/http.md).
 */
function withRequestStatus(result: ExecutionResult): ExecutionResult {
  if (result.data !== undefined || !result.errors?.length) return result;
  const statuses = result.errors.flatMap((error) => {
    const code = error.extensions?.code;
    return isGatewayErrorCode(code) ? [ERROR_CODES[code]] : [];
  });
  if (statuses.length === 0) return result;
  const http = (result.extensions?.http ?? {}) as { status?: number };
  const status = Math.max(...statuses, http.status ?? 0);
  return { ...result, extensions: { ...result.extensions, http: { ...http, status } } };
}
