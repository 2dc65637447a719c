import { type ExecutionResult, GraphQLError } from "graphql";
import { createGraphQLError } from "graphql-yoga";
import { ERROR_CODES, isGatewayErrorCode } from "../errors.ts";

/**
 * A copy of a catalogue error that decides the HTTP status of the response: only errors that
 * stop an operation before it runs are made so. Field errors leave the status at 200, as
 * GraphQL over HTTP asks when there is data.
 */
export function requestLevel(error: GraphQLError): GraphQLError {
  const status = statusOf(error);
  return createGraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    extensions: { ...error.extensions, http: { status } },
  });
}

/** The HTTP status of a request-level error: its code's in the catalogue, else 400. */
function statusOf(error: GraphQLError): number {
  const code = error.extensions.code;
  return isGatewayErrorCode(code) ? ERROR_CODES[code] : 400;
}

/**
 * The whole response to a request refused before any operation (a body too large, a form POST,
 * a stream that is not here): its catalogue error with the catalogue's status and the request's
 * ID, written as every other answer is.
 */
export function refusalResponse(
  error: GraphQLError,
  requestId: string | undefined,
  fetchAPI: { Response: typeof Response } = { Response },
): Response {
  const body = stringifyWithHttpStatus({ errors: [requestLevel(error)] }, requestId);
  return new fetchAPI.Response(body, {
    status: statusOf(error),
    headers: {
      "content-type": "application/json; charset=utf-8",
      ...(requestId === undefined ? {} : { "x-request-id": requestId }),
    },
  });
}

/**
 * The one rule for HTTP statuses (docs/http.md): an error that stopped the operation before it
 * ran (no `path`) shows `extensions.http.status`, the response's own status; a field error, which
 * leaves the response at 200, shows none (an upstream's status is in `extensions.upstream`).
 * yoga removes `extensions.http` from every error before serialising (it uses it for the response
 * status), so it is put back here, from the catalogue.
 */
export function stringifyWithHttpStatus(result: ExecutionResult, requestId?: string): string {
  return JSON.stringify(formatWithHttpStatus(result, requestId));
}

/**
 * The result as sent (graphql-ws and graphql-sse send this too): request-level errors with
 * `extensions.http.status`, every error with the request's ID when there is one, so a client can
 * quote it, and no transport instructions (`extensions.http` of the result) left in it.
 */
export function formatWithHttpStatus(result: ExecutionResult, requestId?: string) {
  const { http: _transport, ...extensions } = (result.extensions ?? {}) as Record<string, unknown>;
  const shown = result.extensions === undefined ? result : { ...result, extensions };
  if (!result.errors?.length) return shown;
  return { ...shown, errors: result.errors.map((error) => withHttpStatus(error, requestId)) };
}

function withHttpStatus(error: GraphQLError | Record<string, unknown>, requestId?: string) {
  const json = error instanceof GraphQLError ? error.toJSON() : error;
  const { code, http: _http, ...rest } = (json.extensions ?? {}) as Record<string, unknown>;
  const id = requestId === undefined ? {} : { requestId };
  const coded = code === undefined ? {} : { code };
  // graphql-js's and yoga's own refusals (parse, validation) keep yoga's statuses and show none.
  if (json.path !== undefined || !isGatewayErrorCode(code)) {
    return { ...json, extensions: { ...coded, ...rest, ...id } };
  }
  return { ...json, extensions: { code, http: { status: ERROR_CODES[code] }, ...rest, ...id } };
}
