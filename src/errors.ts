import { createGraphQLError } from "graphql-yoga";

/**
 * The catalogue: every `extensions.code` the gateway answers with, and the HTTP status that goes
 * with it (shown as `extensions.http.status`; it decides the response status only for
 * request-level errors, see gateway/http-status.ts). A leaf: every layer may raise these, and it
 * imports nothing of ours.
 */
export const ERROR_CODES = {
  BAD_USER_INPUT: 400,
  CURSOR_MISMATCH: 400,
  CURSOR_EXPIRED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  VALIDATION_FAILED: 422,
  RATE_LIMITED: 429,
  COST_LIMIT_EXCEEDED: 400,
  DEPTH_LIMIT_EXCEEDED: 400,
  ALIAS_LIMIT_EXCEEDED: 400,
  /** A bound on live subscriptions (per key, per connection, per instance) is reached. */
  SUBSCRIPTION_LIMIT_EXCEEDED: 429,
  /** Automatic persisted queries: the hash is unknown; send the query with it (Apollo's flow). */
  PERSISTED_QUERY_NOT_FOUND: 200,
  /** Trusted documents only: the operation is not in the manifest. */
  PERSISTED_QUERY_ONLY: 400,
  UPSTREAM_ERROR: 502,
  UPSTREAM_UNAVAILABLE: 503,
  // The gateway is draining (SIGTERM): the client should retry, on another instance.
  SHUTTING_DOWN: 503,
  /** A body over MAX_REQUEST_BYTES (declared or streamed). */
  PAYLOAD_TOO_LARGE: 413,
  /** A POST that is not JSON (CSRF prevention: it runs nothing). */
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** Anything unexpected, masked as "Unexpected error." (logged, never detailed to the client). */
  INTERNAL_SERVER_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isGatewayErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && Object.hasOwn(ERROR_CODES, code);
}

/** A GraphQL error of the catalogue. `http` is added at serialisation time, from the code. */
export function gatewayError(
  code: ErrorCode,
  message: string,
  extensions: { [key: string]: unknown } = {},
) {
  return createGraphQLError(message, { extensions: { code, ...extensions } });
}

export function badUserInput(message: string, extensions: { [key: string]: unknown } = {}) {
  return gatewayError("BAD_USER_INPUT", message, extensions);
}
