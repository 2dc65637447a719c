import type { IncomingHttpHeaders } from "node:http";
import { headerValue } from "./headers.ts";

/**
 * Rate limits as the seed states them (Limits): the type, the reading of the three
 * `X-RateLimit-*` headers and `Retry-After`, and their writing, in one place.
 */

/** The three `X-RateLimit-*` headers of one response. */
export interface RateLimit {
  limit: number;
  remaining: number;
  /** Unix timestamp (seconds) at which the window resets. */
  reset: number;
}

/** The three headers' names, as the seed spells them (the gateway's CORS exposes them too). */
export const RATE_LIMIT_HEADERS = {
  limit: "X-RateLimit-Limit",
  remaining: "X-RateLimit-Remaining",
  reset: "X-RateLimit-Reset",
} as const;

/** The three names as node and undici hand headers over: in lower case. */
const LOWER_CASE = {
  limit: RATE_LIMIT_HEADERS.limit.toLowerCase(),
  remaining: RATE_LIMIT_HEADERS.remaining.toLowerCase(),
  reset: RATE_LIMIT_HEADERS.reset.toLowerCase(),
} as const;

/** The headers as the seed names them, as the gateway passes them on to its clients. */
export function rateLimitHeaders(rateLimit: RateLimit): Record<string, string> {
  return {
    [RATE_LIMIT_HEADERS.limit]: String(rateLimit.limit),
    [RATE_LIMIT_HEADERS.remaining]: String(rateLimit.remaining),
    [RATE_LIMIT_HEADERS.reset]: String(rateLimit.reset),
  };
}

/** Whole seconds to wait when a 429 said nothing of when to retry. */
export const DEFAULT_RETRY_AFTER_S = 1;

/** Digits only, whitespace around them allowed (what `/^\s*\d+\s*$/` accepts), as a number. */
function parseNonNegativeInteger(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  // trim() removes exactly what \s matches; a loop over the digits is the regex without its cost.
  const digits = value.trim();
  if (digits.length === 0) return undefined;
  for (let i = 0; i < digits.length; i++) {
    const code = digits.charCodeAt(i);
    if (code < 48 || code > 57) return undefined;
  }
  const parsed = Number(digits);
  return Number.isSafeInteger(parsed) ? parsed : undefined;
}

/** The latest instant a JavaScript Date can hold, in Unix seconds (year 275760). */
const LAST_DATE_S = 8.64e12;

/** The longest wait the gateway passes on: an upstream asking for more is taken to mean a day. */
export const MAX_RETRY_AFTER_S = 86_400;

/**
 * The longest the gateway answers a key's calls locally after a 429 (docs/limits.md): then one
 * call goes upstream again, so one absurd reset cannot block a key for a day.
 */
export const MAX_LOCAL_BLOCK_S = 3600;

/**
 * The three `X-RateLimit-*` headers, or undefined unless all three are valid integers and the
 * reset is a date at all (an absurd header is ignored, never a failure of the call).
 */
export function parseRateLimit(headers: IncomingHttpHeaders): RateLimit | undefined {
  const limit = parseNonNegativeInteger(headerValue(headers, LOWER_CASE.limit));
  const remaining = parseNonNegativeInteger(headerValue(headers, LOWER_CASE.remaining));
  const reset = parseNonNegativeInteger(headerValue(headers, LOWER_CASE.reset));
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  if (reset > LAST_DATE_S) return undefined;
  return { limit, remaining, reset };
}

/**
 * Whole seconds until the upstream accepts requests again, at least 1 (a 429 means "not now"):
 * from `X-RateLimit-Reset` (the seed's header), else `Retry-After` (seconds or an HTTP date).
 */
export function retryAfterFromHeaders(
  headers: IncomingHttpHeaders,
  rateLimit: RateLimit | undefined,
  nowMs = Date.now(),
): number | undefined {
  const atLeastOne = (seconds: number) =>
    Math.min(MAX_RETRY_AFTER_S, Math.max(1, Math.ceil(seconds)));
  if (rateLimit !== undefined) return atLeastOne(rateLimit.reset - nowMs / 1000);
  const value = headerValue(headers, "retry-after")?.trim();
  if (value === undefined || value === "") return undefined;
  const seconds = parseNonNegativeInteger(value);
  if (seconds !== undefined) return atLeastOne(seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : atLeastOne((date - nowMs) / 1000);
}
