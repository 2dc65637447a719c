import { type ExecutionResult, GraphQLError } from "graphql";
import { createGraphQLError } from "graphql-yoga";
import { ERROR_CODES, isGatewayErrorCode } from "../errors.ts";

/**
 * A copy of a catalogue error that decides the HTTP status of the response: only errors that
 * stop an operation before it runs are made so. Field errors leave the status at 200, as
 * GraphQL over HTTP asks when there is data.
 */
export function requestLevel(error: GraphQLError): GraphQLError {
  const code = error.extensions.code;
  const status = isGatewayErrorCode(code) ? ERROR_CODES[code] : 400;
  return createGraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    extensions: { ...error.extensions, http: { status } },
  });
}

/**
 * yoga removes `extensions.http` from every error before serialising (it uses it for the
 * response status). The contract shows `http.status` to clients, so it is put back, from the
 * code, for every error of the catalogue.
 */
export function stringifyWithHttpStatus(result: ExecutionResult, requestId?: string): string {
  return JSON.stringify(formatWithHttpStatus(result, requestId));
}

/**
 * The result as sent (graphql-ws sends this too): catalogue errors with `extensions.http.status`,
 * and every error with the request's ID when there is one, so a client can quote it.
 */
export function formatWithHttpStatus(result: ExecutionResult, requestId?: string) {
  if (!result.errors?.length) return result;
  return { ...result, errors: result.errors.map((error) => withHttpStatus(error, requestId)) };
}

function withHttpStatus(error: GraphQLError | Record<string, unknown>, requestId?: string) {
  const json = error instanceof GraphQLError ? error.toJSON() : error;
  const extensions = (json.extensions ?? {}) as Record<string, unknown>;
  const { code, ...rest } = extensions;
  const id = requestId === undefined ? {} : { requestId };
  if (!isGatewayErrorCode(code)) return { ...json, extensions: { ...extensions, ...id } };
  return { ...json, extensions: { code, http: { status: ERROR_CODES[code] }, ...rest, ...id } };
}
