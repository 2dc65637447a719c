import {
  OperationDeadlineExceeded,
  type UnavailableReason,
  UpstreamUnavailableError,
} from "./errors.ts";

// Node socket errors and undici's own codes, by what they mean to a caller. Name resolution and
// routing failures count as "refused": in every case no connection was made.
const REASON_BY_CODE: Record<string, UnavailableReason> = {
  ECONNREFUSED: "CONNECTION_REFUSED",
  ENOTFOUND: "CONNECTION_REFUSED",
  EAI_AGAIN: "CONNECTION_REFUSED",
  EHOSTUNREACH: "CONNECTION_REFUSED",
  ENETUNREACH: "CONNECTION_REFUSED",
  EHOSTDOWN: "CONNECTION_REFUSED",
  ENETDOWN: "CONNECTION_REFUSED",
  ECONNRESET: "CONNECTION_RESET",
  EPIPE: "CONNECTION_RESET",
  UND_ERR_SOCKET: "CONNECTION_RESET",
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: "CONNECTION_RESET",
  ETIMEDOUT: "TIMEOUT",
  UND_ERR_CONNECT_TIMEOUT: "TIMEOUT",
  UND_ERR_HEADERS_TIMEOUT: "TIMEOUT",
  UND_ERR_BODY_TIMEOUT: "TIMEOUT",
  UND_ERR_HEADERS_OVERFLOW: "INVALID_RESPONSE",
  UND_ERR_RES_EXCEEDED_MAX_SIZE: "INVALID_RESPONSE",
};

const DESCRIPTION: Record<UnavailableReason, string> = {
  TIMEOUT: "timed out",
  CONNECTION_REFUSED: "connection refused",
  CONNECTION_RESET: "connection reset",
  INVALID_RESPONSE: "invalid response",
  ABORTED: "aborted by the caller",
  OPERATION_DEADLINE: "the operation's deadline passed",
};

function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}

function reasonOf(error: unknown): UnavailableReason | undefined {
  const code = errorCode(error);
  if (code === undefined) return undefined;
  // llhttp parse failures: the bytes on the wire were not HTTP.
  if (code.startsWith("HPE_")) return "INVALID_RESPONSE";
  return REASON_BY_CODE[code];
}

/**
 * Turns a failure of the HTTP exchange into an UpstreamUnavailableError. The signals are checked
 * first because an abort surfaces as whatever error undici or the body stream happened to raise.
 * Unknown errors (bad arguments, bugs) are returned unchanged so they are not disguised as
 * outages. The message names the request (`GET /v1/...`) and the error code, never a header.
 */
export function toUnavailableError(
  error: unknown,
  context: {
    request: string;
    callerSignal: { readonly aborted: boolean; readonly reason: unknown } | undefined;
    deadline: Pick<AbortSignal, "aborted">;
  },
): unknown {
  if (error instanceof UpstreamUnavailableError) return error;
  const reason: UnavailableReason | undefined = context.callerSignal?.aborted
    ? context.callerSignal.reason instanceof OperationDeadlineExceeded
      ? "OPERATION_DEADLINE"
      : "ABORTED"
    : context.deadline.aborted
      ? "TIMEOUT"
      : reasonOf(error);
  if (reason === undefined) return error;
  const code = errorCode(error);
  const suffix =
    code !== undefined && reason !== "ABORTED" && reason !== "OPERATION_DEADLINE"
      ? ` (${code})`
      : "";
  return new UpstreamUnavailableError(
    reason,
    `upstream ${context.request}: ${DESCRIPTION[reason]}${suffix}`,
    { cause: error },
  );
}

export function isRetryableTransportError(error: unknown): boolean {
  return (
    error instanceof UpstreamUnavailableError &&
    (error.reason === "CONNECTION_REFUSED" || error.reason === "CONNECTION_RESET")
  );
}
