import type { JsonObject } from "./vocabulary.ts";
import type { WireErrorBody } from "./wire-shapes.ts";

/**
 * The one catalogue of `error.code` values the sandbox answers with. The seed names only
 * NOT_FOUND; the rest are the sandbox's choice, one code per kind of failure.
 */
export const ERROR_CODES = {
  /** The body is missing, not JSON, not an object, or has wrong/unknown fields. */
  BAD_REQUEST: 400,
  /** A query parameter is unknown, repeated, of the wrong type, out of bounds or not in its enum. */
  INVALID_PARAMETER: 400,
  /** A cursor was altered, issued to another organization or other filters, or is stale. */
  INVALID_CURSOR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  /** Well-formed input that breaks a rule: empty name, bad email, two default voice configs... */
  VALIDATION_ERROR: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The code an injected fault uses when it gives a status but no body. */
export function defaultCodeForStatus(status: number): string {
  for (const [code, codeStatus] of Object.entries(ERROR_CODES)) {
    if (codeStatus === status) return code;
  }
  return `HTTP_${status}`;
}

/** A failure answered with the seed's error body; thrown by operations, caught by the pipeline. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: JsonObject | undefined;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    details?: JsonObject,
    headers: Record<string, string> = {},
    /** Overrides the code's usual status, where a dialect chooses another (a rejected cursor). */
    status: number = ERROR_CODES[code],
  ) {
    super(message);
    this.code = code;
    this.status = status;
    this.details = details;
    this.headers = headers;
  }
}

/** The seed's error body; `requestId` is left out when undefined (the dialect's choice). */
export function errorBody(
  code: string,
  message: string,
  requestId: string | undefined,
  details?: JsonObject,
): WireErrorBody {
  const error = details === undefined ? { code, message } : { code, message, details };
  return requestId === undefined ? { error } : { error, requestId };
}

export function notFound(what: string, id: string): ApiError {
  return new ApiError("NOT_FOUND", `${what} ${id} was not found.`, { id });
}
