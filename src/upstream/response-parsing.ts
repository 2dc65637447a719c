import type { IncomingHttpHeaders } from "node:http";
import { STATUS_CODES } from "node:http";
import type { Dispatcher } from "undici";
import type { UpstreamRequest, UpstreamResponse } from "./client.ts";
import { UpstreamError, UpstreamUnavailableError } from "./errors.ts";
import { headerValue } from "./headers.ts";
import { isJsonObject } from "./json.ts";
import { KeyRedactor } from "./key-redaction.ts";
import { parseRateLimit, type RateLimit, retryAfterFromHeaders } from "./rate-limit.ts";

/** Result of reading a body as JSON: `empty` covers no bytes and whitespace only. */
export type ParsedBody = { kind: "empty" } | { kind: "json"; value: unknown } | { kind: "invalid" };

export function parseJsonBody(text: string): ParsedBody {
  if (text.trim() === "") return { kind: "empty" };
  try {
    return { kind: "json", value: JSON.parse(text) };
  } catch {
    return { kind: "invalid" };
  }
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

export function statusText(status: number): string {
  return STATUS_CODES[status] ?? `HTTP ${status}`;
}

/**
 * Builds an UpstreamError from the seed's error body `{ error: { code, message, details? },
 * requestId }`. Every piece is optional because proxies and other upstreams send less: the code
 * falls back to `HTTP_<status>`, the message to the status text, the requestId to the
 * `X-Request-Id` header. A bare string `error` is read as the message.
 */
export function toUpstreamError(
  init: {
    status: number;
    body: unknown;
    headers: IncomingHttpHeaders;
    rateLimit: RateLimit | undefined;
  },
  authorization: string,
): UpstreamError {
  // An upstream that echoes the caller's key, in any case or spelling, must not make the gateway
  // show or log it: every text of the error is redacted here, once, before anything reads it.
  const redactor = new KeyRedactor(authorization);
  const body = redactor.json(isJsonObject(init.body) ? init.body : {});
  const error = body.error;
  const errorObject = isJsonObject(error) ? error : {};
  const message =
    nonEmptyString(errorObject.message) ?? nonEmptyString(error) ?? statusText(init.status);
  const headerRequestId = headerValue(init.headers, "x-request-id");
  return new UpstreamError({
    status: init.status,
    code: nonEmptyString(errorObject.code) ?? `HTTP_${init.status}`,
    message,
    requestId:
      nonEmptyString(body.requestId) ??
      (headerRequestId === undefined ? undefined : redactor.text(headerRequestId)),
    details: isJsonObject(errorObject.details) ? errorObject.details : undefined,
    rateLimit: init.rateLimit,
    retryAfter: retryAfterFromHeaders(init.headers, init.rateLimit),
  });
}

const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** One attempt's answer: the response, or the error with whether another attempt may help. */
export type AttemptOutcome<T> =
  | { response: UpstreamResponse<T> }
  | { error: unknown; retryable: boolean };

/** Maps a fully read response to a result or an error; the body is already consumed. */
export function interpretResponse<T>(
  req: Pick<UpstreamRequest, "authorization" | "onRateLimit">,
  describe: string,
  response: Pick<Dispatcher.ResponseData, "statusCode" | "headers">,
  text: string,
): AttemptOutcome<T> {
  const { statusCode: status, headers } = response;
  const rateLimit = parseRateLimit(headers);
  if (rateLimit !== undefined) req.onRateLimit?.(rateLimit);
  const parsed = parseJsonBody(text);
  const retryable = RETRYABLE_STATUSES.has(status);
  // A redirect, or a 429 (proxies and CDNs rate-limit with text or HTML bodies), is reported by
  // its status whatever its body says: a 429's headers still tell the client when to retry.
  const statusSuffices = (status >= 300 && status < 400) || status === 429;
  if (parsed.kind === "invalid" && !statusSuffices) {
    const message = `upstream ${describe}: ${status} response body is not JSON`;
    return { error: new UpstreamUnavailableError("INVALID_RESPONSE", message), retryable };
  }
  const body = parsed.kind === "json" ? parsed.value : undefined;
  if (status >= 200 && status < 300) {
    const requestId = headerValue(headers, "x-request-id");
    return { response: { status, body: (body ?? {}) as T, rateLimit, requestId } };
  }
  const error = toUpstreamError({ status, body, headers, rateLimit }, req.authorization);
  return { error, retryable };
}
