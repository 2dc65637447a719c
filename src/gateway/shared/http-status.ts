import { randomUUID } from "node:crypto";
import { type ServerResponse, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { type ExecutionResult, GraphQLError } from "graphql";
import { createGraphQLError } from "graphql-yoga";
import { ERROR_CODES, isGatewayErrorCode } from "../../errors.ts";

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

/** A refusal as it goes on the wire: the code's status, its headers and its JSON body. */
export interface RefusalAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The one writer of every refusal the gateway answers before or instead of an operation (a body
 * too large, a form POST, an unknown path or method, a stream that is not here, node:http's own
 * refusals): its catalogue error with the catalogue's status and the request's ID, in the body
 * and in `X-Request-Id`. The media (a Fetch Response, a node:http response, a raw socket) only
 * carry what this makes (refusalResponse, writeRefusal, refusalOnSocket).
 */
export function refusalAnswer(error: GraphQLError, requestId: string): RefusalAnswer {
  const body = stringifyWithHttpStatus({ errors: [requestLevel(error)] }, requestId);
  return {
    status: statusOf(error),
    headers: { "content-type": "application/json; charset=utf-8", "x-request-id": requestId },
    body,
  };
}

/** refusalAnswer as a Fetch Response (yoga's plugins answer these). */
export function refusalResponse(
  error: GraphQLError,
  requestId: string | undefined,
  fetchAPI: { Response: typeof Response } = { Response },
): Response {
  const answer = refusalAnswer(error, requestId ?? randomUUID());
  return new fetchAPI.Response(answer.body, { status: answer.status, headers: answer.headers });
}

/** refusalAnswer on a node:http response (answers made before yoga: cookies, a missing Host). */
export function writeRefusal(
  res: ServerResponse,
  error: GraphQLError,
  requestId: string = randomUUID(),
): void {
  const answer = refusalAnswer(error, requestId);
  res.writeHead(answer.status, {
    ...answer.headers,
    "content-length": String(Buffer.byteLength(answer.body)),
  });
  res.end(answer.body);
}

/**
 * refusalAnswer as a whole HTTP/1.1 response on a raw socket, which it then closes: node:http's
 * `clientError`, where no response object exists (a bad request line, headers too large or slow).
 */
export function refusalOnSocket(socket: Duplex, error: GraphQLError): void {
  const answer = refusalAnswer(error, randomUUID());
  const headers = Object.entries({
    connection: "close",
    ...answer.headers,
    "content-length": String(Buffer.byteLength(answer.body)),
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  socket.end(
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${headers}\r\n${answer.body}`,
  );
}

/**
 * The one rule for HTTP statuses (docs/http.md): an error that stopped the operation before it
 * ran (no `path`) shows `extensions.http.status`, the response's own status; a field error, which
 * leaves the response at 200, shows none (an upstream's status is in `extensions.upstream`).
 * yoga removes `extensions.http` from every error before serialising (it uses it for the response
 * status), so it is put back here, from the catalogue.
 */
export function stringifyWithHttpStatus(
  result: ExecutionResult,
  requestId?: string,
  plainJson = false,
): string {
  return JSON.stringify(formatWithHttpStatus(result, requestId, plainJson));
}

/**
 * GraphQL over HTTP's one status policy for a GraphQL request error (a catalogue status of 400:
 * a bad input, a cost or depth over its limit, a document not trusted): 400 to a client that
 * accepts `application/graphql-response+json`, 200 to one answered in plain `application/json`,
 * as graphql-js's own parse and validation errors are, so routers in front pass the code on.
 * Every other status (401, 413, 415, 429, 5xx) is the HTTP exchange's own and stays.
 */
export function statusFor(status: number, plainJson: boolean): number {
  return plainJson && status === 400 ? 200 : status;
}

/**
 * The result as sent (graphql-ws and graphql-sse send this too): request-level errors with
 * `extensions.http.status`, every error with the request's ID when there is one, so a client can
 * quote it, and no transport instructions (`extensions.http` of the result) left in it.
 */
export function formatWithHttpStatus(
  result: ExecutionResult,
  requestId?: string,
  plainJson = false,
) {
  const { http: _transport, ...extensions } = (result.extensions ?? {}) as Record<string, unknown>;
  const shown = result.extensions === undefined ? result : { ...result, extensions };
  if (!result.errors?.length) return shown;
  return {
    ...shown,
    errors: result.errors.map((error) => withHttpStatus(error, requestId, plainJson)),
  };
}

function withHttpStatus(
  error: GraphQLError | Record<string, unknown>,
  requestId: string | undefined,
  plainJson: boolean,
) {
  const json = error instanceof GraphQLError ? error.toJSON() : error;
  const { code, http: _http, ...rest } = (json.extensions ?? {}) as Record<string, unknown>;
  const id = requestId === undefined ? {} : { requestId };
  const coded = code === undefined ? {} : { code };
  // graphql-js's and yoga's own refusals (parse, validation) keep yoga's statuses and show none.
  if (json.path !== undefined || !isGatewayErrorCode(code)) {
    return { ...json, extensions: { ...coded, ...rest, ...id } };
  }
  // A request error answered 200 in plain JSON shows no status: the response's is 200.
  const status = ERROR_CODES[code];
  if (statusFor(status, plainJson) !== status)
    return { ...json, extensions: { code, ...rest, ...id } };
  return { ...json, extensions: { code, http: { status }, ...rest, ...id } };
}
