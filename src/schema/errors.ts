import { GraphQLError } from "graphql";
import { createGraphQLError } from "graphql-yoga";
import type { JsonObject } from "../upstream/dto.ts";
import { UpstreamError, UpstreamUnavailableError } from "../upstream/errors.ts";

/**
 * Every `extensions.code` the gateway answers with, and the HTTP status that goes with it
 * (shown as `extensions.http.status`; it decides the response status only for request-level
 * errors, see gateway/use-http-status.ts).
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
  UPSTREAM_ERROR: 502,
  UPSTREAM_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isGatewayErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && Object.hasOwn(ERROR_CODES, code);
}

/** A GraphQL error of the catalogue. `http` is added at serialisation time, from the code. */
export function gatewayError(code: ErrorCode, message: string, extensions: JsonObject = {}) {
  return createGraphQLError(message, { extensions: { code, ...extensions } });
}

export function badUserInput(message: string, extensions: JsonObject = {}) {
  return gatewayError("BAD_USER_INPUT", message, extensions);
}

const CODE_BY_UPSTREAM_STATUS: Record<number, ErrorCode> = {
  400: "BAD_USER_INPUT",
  401: "UNAUTHENTICATED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  422: "VALIDATION_FAILED",
  429: "RATE_LIMITED",
};

/** The facts of an upstream failure that reach the client in `extensions.upstream`. */
export function upstreamFacts(error: UpstreamError): JsonObject {
  return {
    status: error.status,
    code: error.code,
    message: error.message,
    requestId: error.requestId ?? null,
    details: error.details ?? null,
  };
}

/**
 * Whole seconds a rate-limited client should wait (`extensions.retryAfter`, `Retry-After`): the
 * upstream's own figure, fixed when its answer arrived, or 1 second when it sent none.
 */
export function retryAfterSeconds(error: UpstreamError): number {
  return error.retryAfter ?? 1;
}

/** Maps an upstream failure to the catalogue (contract §5). */
export function fromUpstreamError(error: UpstreamError | UpstreamUnavailableError): GraphQLError {
  if (error instanceof UpstreamUnavailableError) {
    return gatewayError(
      "UPSTREAM_UNAVAILABLE",
      "The upstream API is unavailable; try again later.",
      {
        reason: error.reason,
      },
    );
  }
  const code = CODE_BY_UPSTREAM_STATUS[error.status] ?? "UPSTREAM_ERROR";
  const extensions: JsonObject = { upstream: upstreamFacts(error) };
  if (code === "RATE_LIMITED") extensions.retryAfter = retryAfterSeconds(error);
  const message =
    code === "UPSTREAM_ERROR" ? `The upstream API failed (HTTP ${error.status}).` : error.message;
  return gatewayError(code, message, extensions);
}

/**
 * yoga's `maskError`: upstream failures become catalogue errors (keeping the path), errors the
 * gateway raised on purpose pass, anything else is masked as an unexpected error.
 */
export function maskError(error: unknown, message: string): Error {
  const original = upstreamFailureOf(error);
  if (original) {
    const mapped = fromUpstreamError(original);
    if (!(error instanceof GraphQLError)) return mapped;
    return createGraphQLError(mapped.message, {
      nodes: error.nodes,
      source: error.source,
      positions: error.positions,
      path: error.path,
      extensions: mapped.extensions,
    });
  }
  if (error instanceof GraphQLError && isDeliberate(error)) return error;
  return createGraphQLError(message, {
    ...(error instanceof GraphQLError
      ? { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path }
      : {}),
    extensions: { code: "INTERNAL_SERVER_ERROR", unexpected: true },
  });
}

/**
 * The upstream failure behind an error, however deep graphql-js and yoga wrapped it; undefined
 * for every other error.
 */
export function upstreamFailureOf(
  error: unknown,
): UpstreamError | UpstreamUnavailableError | undefined {
  let cause = error;
  while (cause instanceof GraphQLError && cause.originalError) cause = cause.originalError;
  return cause instanceof UpstreamError || cause instanceof UpstreamUnavailableError
    ? cause
    : undefined;
}

/** A GraphQLError that carries no foreign error inside: one graphql-js or the gateway made. */
function isDeliberate(error: GraphQLError): boolean {
  const original = error.originalError;
  if (original == null) return true;
  return original instanceof GraphQLError && isDeliberate(original);
}
