import type { ExecutionResult, GraphQLError } from "graphql";
import { createGraphQLError, isAsyncIterable, mapAsyncIterator, type Plugin } from "graphql-yoga";
import { ERROR_CODES, isGatewayErrorCode } from "../../errors.ts";
import type { RequestIdContext } from "../arrival/request-id.ts";
import { answeredMediaType } from "../assembly/yoga-adapter.ts";
import { statusFor, stringifyWithHttpStatus } from "../shared/http-status.ts";

/**
 * Shows `extensions.http.status` on catalogue errors, and the request's ID on every error, in
 * every result yoga serialises: single results, batches, and each event of a stream.
 */
export function useHttpStatusInErrors(): Plugin<Record<string, never>, RequestIdContext> {
  return {
    onResultProcess({ request, result, setResult, serverContext }) {
      const requestId = serverContext.requestId;
      // Answered in plain application/json (yoga's choice for this Accept): request errors are 200.
      const plainJson = answeredMediaType(request.headers.get("accept")) === "application/json";
      const stringify = (value: ExecutionResult) =>
        stringifyWithHttpStatus(value, requestId, plainJson);
      if (isAsyncIterable(result)) {
        setResult(mapAsyncIterator(result, (value) => ({ ...value, stringify })));
        return;
      }
      if (Array.isArray(result)) {
        setResult(result.map((single) => ({ ...single, stringify })));
        return;
      }
      setResult({ ...withRequestStatus(result, plainJson), stringify });
    },
  };
}

/**
 * An operation refused before it ran (no data) with a catalogue error answers the status of the
 * one policy (statusFor): the catalogue's, but 200 for a request error answered in plain JSON.
 */
function withRequestStatus(result: ExecutionResult, plainJson: boolean): ExecutionResult {
  if (result.data !== undefined || !result.errors?.length) return result;
  const statuses = result.errors.flatMap((error) => {
    const code = error.extensions?.code;
    return isGatewayErrorCode(code) ? [ERROR_CODES[code]] : [];
  });
  if (statuses.length === 0) return result;
  const http = (result.extensions?.http ?? {}) as { status?: number };
  const status = statusFor(Math.max(...statuses, http.status ?? 0), plainJson);
  // yoga takes an error's own status above the result's: in plain JSON it must not.
  const errors =
    status === 200 ? result.errors.map((error) => withoutStatus(error)) : result.errors;
  return { ...result, errors, extensions: { ...result.extensions, http: { ...http, status } } };
}

function withoutStatus(error: GraphQLError): GraphQLError {
  const http = error.extensions?.http as { status?: number } | undefined;
  if (http?.status === undefined) return error;
  const { http: _status, ...extensions } = error.extensions;
  return createGraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError ?? undefined,
    extensions,
  });
}
