import { GraphQLError } from "graphql";
import { createGraphQLError } from "graphql-yoga";
import { ConnectionError } from "../../connections/errors.ts";
import { type ErrorCode, gatewayError } from "../../errors.ts";
import { UpstreamError, UpstreamUnavailableError, upstreamFacts } from "../../upstream/errors.ts";
import type { JsonObject } from "../../upstream/json.ts";
import { DEFAULT_RETRY_AFTER_S } from "../../upstream/rate-limit.ts";

const CODE_BY_UPSTREAM_STATUS: Record<number, ErrorCode> = {
  400: "BAD_USER_INPUT",
  401: "UNAUTHENTICATED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  422: "VALIDATION_FAILED",
  429: "RATE_LIMITED",
};

/**
 * Whole seconds a rate-limited client should wait (`extensions.retryAfter`, `Retry-After`): the
 * upstream's own figure, fixed when its answer arrived, or 1 second when it sent none.
 */
export function retryAfterSeconds(error: UpstreamError): number {
  return error.retryAfter ?? DEFAULT_RETRY_AFTER_S;
}

/**
 * An upstream's own error code as it may reach a browser in session mode: a plain code, which
 * the key redaction has left whole (a redacted code holds brackets). Any other code is replaced
 * by the HTTP status's, so no upstream text the gateway cannot vouch for reaches the browser.
 */
const PLAIN_CODE = /^[A-Z][A-Z0-9_]{0,63}$/;

/** How much of the upstream's own error the catalogue error carries (`extensions.upstream`). */
export interface UpstreamFactsPolicy {
  /** Session mode: only a plain upstream code passes; other codes become `HTTP_<status>`. */
  plainCodesOnly: boolean;
}

const PASSTHROUGH: UpstreamFactsPolicy = { plainCodesOnly: false };

function upstreamFactsFor(error: UpstreamError, policy: UpstreamFactsPolicy): JsonObject {
  const facts = upstreamFacts(error);
  if (policy.plainCodesOnly && !PLAIN_CODE.test(error.code)) facts.code = `HTTP_${error.status}`;
  return facts;
}

/** Maps an upstream failure to the catalogue (contract §5). */
export function fromUpstreamError(
  error: UpstreamError | UpstreamUnavailableError,
  policy: UpstreamFactsPolicy = PASSTHROUGH,
): GraphQLError {
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
  const extensions: JsonObject = { upstream: upstreamFactsFor(error, policy) };
  if (code === "RATE_LIMITED") extensions.retryAfter = retryAfterSeconds(error);
  const message =
    code === "UPSTREAM_ERROR" ? `The upstream API failed (HTTP ${error.status}).` : error.message;
  return gatewayError(code, message, extensions);
}

/** Maps a connection's own error to the catalogue: its code, and the upstream's refusal if any. */
function fromConnectionError(error: ConnectionError, policy: UpstreamFactsPolicy): GraphQLError {
  const cause = error.cause;
  return gatewayError(error.code, error.message, {
    ...(error.argument === undefined ? {} : { argument: error.argument }),
    ...(cause instanceof UpstreamError ? { upstream: upstreamFactsFor(cause, policy) } : {}),
  });
}

/**
 * The catalogue error for a failure the gateway knows (an upstream's, a connection's), however
 * deep graphql-js and yoga wrapped it, without its location; undefined for any other error.
 */
export function catalogueErrorOf(
  error: unknown,
  policy: UpstreamFactsPolicy = PASSTHROUGH,
): GraphQLError | undefined {
  const original = originalOf(error);
  if (original instanceof ConnectionError) return fromConnectionError(original, policy);
  if (original instanceof UpstreamError || original instanceof UpstreamUnavailableError) {
    return fromUpstreamError(original, policy);
  }
  return undefined;
}

/**
 * yoga's `maskError`: known failures become catalogue errors (keeping the path), errors the
 * gateway raised on purpose pass, anything else is masked as an unexpected error.
 */
export function maskError(error: unknown, message: string): Error {
  return maskErrorWith(PASSTHROUGH, error, message);
}

/** yoga's `maskError` of session mode: upstream codes pass only when plain (PLAIN_CODE). */
export function maskSessionError(error: unknown, message: string): Error {
  return maskErrorWith({ plainCodesOnly: true }, error, message);
}

function maskErrorWith(policy: UpstreamFactsPolicy, error: unknown, message: string): Error {
  const mapped = catalogueErrorOf(error, policy);
  if (mapped) {
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
  const original = originalOf(error);
  return original instanceof UpstreamError || original instanceof UpstreamUnavailableError
    ? original
    : undefined;
}

/** The connection's own refusal behind an error (a bad or mismatched cursor, a bad window). */
export function connectionRefusalOf(error: unknown): ConnectionError | undefined {
  const original = originalOf(error);
  return original instanceof ConnectionError ? original : undefined;
}

/** The error graphql-js and yoga wrapped, or the error itself. */
function originalOf(error: unknown): unknown {
  let cause = error;
  while (cause instanceof GraphQLError && cause.originalError) cause = cause.originalError;
  return cause;
}

/**
 * Whether masking replaces the error, which yoga then logs: a failure the catalogue maps, or an
 * error the gateway did not raise on purpose.
 */
export function isMasked(error: GraphQLError): boolean {
  return catalogueErrorOf(error) !== undefined || !isDeliberate(error);
}

/** A GraphQLError that carries no foreign error inside: one graphql-js or the gateway made. */
function isDeliberate(error: GraphQLError): boolean {
  const original = error.originalError;
  if (original == null) return true;
  return original instanceof GraphQLError && isDeliberate(original);
}
