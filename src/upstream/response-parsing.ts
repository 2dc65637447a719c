import type { IncomingHttpHeaders } from "node:http";
import { STATUS_CODES } from "node:http";
import { UpstreamError } from "./errors.ts";
import { headerValue } from "./headers.ts";
import { isJsonObject } from "./json.ts";
import { type RateLimit, retryAfterFromHeaders } from "./rate-limit.ts";

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
  // An upstream that echoes the caller's key must not make the gateway show or log it.
  const secrets = secretsOf(authorization);
  const body = redact(isJsonObject(init.body) ? init.body : {}, secrets);
  const error = body.error;
  const errorObject = isJsonObject(error) ? error : {};
  const message =
    nonEmptyString(errorObject.message) ?? nonEmptyString(error) ?? statusText(init.status);
  return new UpstreamError({
    status: init.status,
    code: nonEmptyString(errorObject.code) ?? `HTTP_${init.status}`,
    message,
    requestId:
      nonEmptyString(body.requestId) ?? redact(headerValue(init.headers, "x-request-id"), secrets),
    details: isJsonObject(errorObject.details) ? errorObject.details : undefined,
    rateLimit: init.rateLimit,
    retryAfter: retryAfterFromHeaders(init.headers, init.rateLimit),
  });
}

/** The header value and its bare token: either may be echoed back by an upstream. */
function secretsOf(authorization: string): string[] {
  const token = authorization.replace(/^\s*\S+\s+/, "").trim();
  return [authorization.trim(), token].filter((secret) => secret.length >= 4);
}

/** A deep copy of a JSON value with every occurrence of a secret replaced. */
export function redact<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  if (typeof value === "string") {
    return secrets.reduce(
      (text, secret) => text.replaceAll(secret, "[REDACTED]"),
      value as string,
    ) as T;
  }
  if (Array.isArray(value)) return value.map((item) => redact(item, secrets)) as T;
  if (isJsonObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [redact(key, secrets), redact(item, secrets)]),
    ) as T;
  }
  return value;
}
