import { createGraphQLError } from "graphql-yoga";

/**
 * The catalogue: every `extensions.code` the gateway answers with, and the HTTP status that goes
 * with it (shown as `extensions.http.status`; it decides the response status only for
 * request-level errors, see gateway/shared/http-status.ts). A leaf: every layer may raise these, and it
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
  // The gateway is draining (SIGTERM): the client should retry, on another instance. A live
  // query's end has no path, so it shows this status; a subscription field's shows none.
  SHUTTING_DOWN: 503,
  /** A body over MAX_REQUEST_BYTES (declared or streamed). */
  PAYLOAD_TOO_LARGE: 413,
  /** A POST that is not JSON (CSRF prevention: it runs nothing), or a body yoga cannot read. */
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** A method a path does not serve (a PUT to /graphql, a mutation over GET). */
  METHOD_NOT_ALLOWED: 405,
  /** An `Accept` naming no media type the answer can be sent as. */
  NOT_ACCEPTABLE: 406,
  /** A request line and headers past node's maxHeaderSize (a GET's URL of about 16 KiB). */
  HEADERS_TOO_LARGE: 431,
  /** Headers or a whole request slower than HEADERS_TIMEOUT_MS / REQUEST_TIMEOUT_MS. */
  REQUEST_TIMEOUT: 408,
  /** Bytes node:http cannot read as an HTTP/1.1 request. */
  BAD_HTTP_REQUEST: 400,
  /** Anything unexpected, masked as "Unexpected error." (logged, never detailed to the client). */
  INTERNAL_SERVER_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * Where a code is answered: refusing the whole operation before it runs (`operation`: no data,
 * the response has the code's status), as a field error beside data (`field`: the response stays
 * 200), or either (http-status.ts holds the rule).
 */
export type ErrorScope = "operation" | "field" | "both";

/**
 * What each code tells a client, where it is answered and what its error carries beside `code`
 * and `requestId`. docs/errors.md prints its table from this (`npm run docs:tables`).
 */
export const ERROR_CATALOGUE: {
  readonly [Code in ErrorCode]: { meaning: string; scope: ErrorScope; extensions?: string };
} = {
  BAD_USER_INPUT: {
    meaning:
      "An input the gateway judges alone, refusing the whole operation before any call: a bound, a variable of the wrong type, an ID with the wrong prefix or over 255 characters, an explicit `null` in an update; or the upstream's 400, as a field error",
    scope: "both",
    extensions:
      "`argument` (the argument's path: `id`, `ids[1]`, `filter.agentId`, `input.greeting`, `input.metadata.a[0]` for a value nested too deep, or a variable by its path, `$first`, `$f.startDate`, when it does not fit its type or holds a lone surrogate); `upstream` when the upstream refused",
  },
  CURSOR_MISMATCH: {
    meaning: "A cursor reused with other filters, on another list or another page form",
    scope: "field",
  },
  CURSOR_EXPIRED: {
    meaning: "The upstream no longer accepts its cursor: restart from the first page",
    scope: "field",
    extensions: "`upstream`",
  },
  UNAUTHENTICATED: {
    meaning:
      "No key, a malformed one, a session token that does not verify or has logged out (no upstream call), or a key the upstream refused (401)",
    scope: "both",
    extensions: "`upstream` when the upstream refused",
  },
  FORBIDDEN: {
    meaning:
      "The upstream's 403, a read-only session's mutation, a session whose organization has no key here, or a request with the session cookie that fails its CSRF checks",
    scope: "both",
    extensions: "`upstream` when the upstream refused",
  },
  NOT_FOUND: {
    meaning:
      "The upstream's 404: a nullable field is `null` beside the error; or a path the gateway does not serve, or a single-connection SSE stream that is not here (HTTP 404)",
    scope: "both",
    extensions: "`upstream`",
  },
  CONFLICT: { meaning: "The upstream's 409", scope: "field", extensions: "`upstream`" },
  VALIDATION_FAILED: { meaning: "The upstream's 422", scope: "field", extensions: "`upstream`" },
  RATE_LIMITED: {
    meaning:
      "The upstream's 429, the key's 429 memory until its reset, a key's calls past its place and queue, or a session's rate limit; a response whose every root field was is 429 with `Retry-After`",
    scope: "both",
    extensions: '`retryAfter` (seconds); `upstream`, or `reason: "KEY_CONCURRENCY"`',
  },
  COST_LIMIT_EXCEEDED: {
    meaning:
      "An operation estimated over `MAX_UPSTREAM_CALLS` (nothing called), or each field left once it made them or read `MAX_UPSTREAM_BYTES`",
    scope: "both",
    extensions: "`cost`",
  },
  DEPTH_LIMIT_EXCEEDED: {
    meaning: "A selection deeper than `MAX_DEPTH`",
    scope: "operation",
    extensions: "`limit`",
  },
  ALIAS_LIMIT_EXCEEDED: {
    meaning: "More aliases than `MAX_ALIASES`",
    scope: "operation",
    extensions: "`limit`",
  },
  SUBSCRIPTION_LIMIT_EXCEEDED: {
    meaning:
      "A subscription past a bound on live subscriptions: one payload, at once, with no upstream call",
    scope: "operation",
    extensions: "`subscriptions: { limit, scope }`",
  },
  PERSISTED_QUERY_NOT_FOUND: {
    meaning: "An automatic persisted query's hash is unknown: send the query with it",
    scope: "operation",
  },
  PERSISTED_QUERY_ONLY: {
    meaning: "Trusted documents only, and this is not one",
    scope: "operation",
  },
  UPSTREAM_ERROR: {
    meaning: "The upstream's 5xx (or 3xx)",
    scope: "field",
    extensions: "`upstream`",
  },
  UPSTREAM_UNAVAILABLE: {
    meaning:
      "No usable answer: a timeout, a refused or reset connection, a body that is not JSON, the operation's deadline",
    scope: "field",
    extensions: "`reason`",
  },
  SHUTTING_DOWN: {
    meaning:
      "The gateway is draining: a `conversationStatus` subscription ends with it as a field error; a `@live` query ends with it (no `path`), or is refused with it when asked during the drain. Run it again, on another instance",
    scope: "both",
  },
  PAYLOAD_TOO_LARGE: { meaning: "A body over `MAX_REQUEST_BYTES`", scope: "operation" },
  UNSUPPORTED_MEDIA_TYPE: {
    meaning:
      "A POST that is not JSON (CSRF prevention: nothing runs), or a body of a media type a GraphQL request is not read from (`application/xml`, `multipart/form-data`)",
    scope: "operation",
  },
  METHOD_NOT_ALLOWED: {
    meaning:
      "A method the path does not serve (a `PUT` to `/graphql`), or a mutation sent by `GET`; the `Allow` header says which do",
    scope: "operation",
  },
  NOT_ACCEPTABLE: {
    meaning:
      "An `Accept` naming no media type the answer can be sent as: accept `application/graphql-response+json` or `application/json`",
    scope: "operation",
  },
  HEADERS_TOO_LARGE: {
    meaning:
      "A request line and headers over 16 KiB (node's `maxHeaderSize`), such as a GET with a long query: send it as a POST body",
    scope: "operation",
  },
  REQUEST_TIMEOUT: {
    meaning:
      "Headers slower than `HEADERS_TIMEOUT_MS`, or a request slower than `REQUEST_TIMEOUT_MS`; the socket is closed",
    scope: "operation",
  },
  BAD_HTTP_REQUEST: {
    meaning:
      "A request the gateway cannot read: bytes that are not HTTP/1.1 or an HTTP/1.1 request without `Host` (the socket is closed), an SSE request without a query, or a graphql-ws message outside its protocol (close 4400, 4409, 4429)",
    scope: "operation",
  },
  INTERNAL_SERVER_ERROR: {
    meaning: 'Anything unexpected, masked as "Unexpected error." and logged as an error',
    scope: "both",
  },
};

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
