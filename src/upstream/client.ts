import { setTimeout as sleep } from "node:timers/promises";
import { type Dispatcher, Pool } from "undici";
import { DEFAULT_READING, type UpstreamReading } from "./conversation-reading.ts";
import { UpstreamError, UpstreamUnavailableError } from "./errors.ts";
import { headerValue } from "./headers.ts";
import { KeyMemory, keyHash } from "./key-memory.ts";
import type { RateLimit } from "./rate-limit.ts";
import { parseRateLimit } from "./rate-limit.ts";
import { parseJsonBody, toUpstreamError } from "./response-parsing.ts";
import { isRetryableTransportError, toUnavailableError } from "./transport-errors.ts";
import { inUpstreamSpan } from "./upstream-span.ts";

export interface UpstreamClientOptions {
  /** Without `/v1`, e.g. "http://127.0.0.1:4010"; may contain a path prefix. */
  baseUrl: string;
  /** Overall budget of one `request()` call, retries and backoff included. Default 10 000. */
  timeoutMs?: number;
  /** Keep-alive pool size. Default 32. */
  connections?: number;
  /** Retries of an idempotent GET. Default 2. */
  maxRetries?: number;
  /** Base of the bounded exponential backoff. Default 50. */
  retryDelayMs?: number;
  /** Default "voicegraph/0.1.0". */
  userAgent?: string;
  /** Largest response body read; a larger one is an invalid response. Default 16 MiB. */
  maxResponseBytes?: number;
  /** What the answers cannot tell (search parameter, duration unit); defaults: the seed's sandbox. */
  reading?: Partial<UpstreamReading>;
}

export type QueryValue = string | number | undefined;

export interface UpstreamRequest {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** E.g. "/v1/agents/agt_1"; the caller encodes path segments with encodeURIComponent. */
  path: string;
  /** Sent in insertion order; undefined entries omitted. */
  query?: Record<string, QueryValue>;
  /** JSON-encoded when present. */
  body?: unknown;
  /** The caller's Authorization header, forwarded verbatim. */
  authorization: string;
  /** Client disconnect: aborts the upstream call. */
  signal?: AbortSignal;
  /** The gateway's request ID, sent upstream as `X-Request-Id`. */
  requestId?: string;
  /** Called for every response carrying the three X-RateLimit-* headers, retried ones included. */
  onRateLimit?: (rateLimit: RateLimit) => void;
}

export interface UpstreamResponse<T> {
  status: number;
  body: T;
  rateLimit: RateLimit | undefined;
  requestId: string | undefined;
}

export interface UpstreamClient {
  /** How this upstream reads where the seed is silent and its answers do not say (default: DEFAULT_READING). */
  readonly reading?: UpstreamReading;
  request<T>(req: UpstreamRequest): Promise<UpstreamResponse<T>>;
  /** Whether the upstream has accepted this key lately (then its calls need no probe). */
  knowsKey?(authorization: string): boolean;
  /** GET <base>/v1/organization without credentials: any HTTP answer (401 included) means reachable. */
  isReachable(signal?: AbortSignal): Promise<boolean>;
  close(): Promise<void>;
}

const MAX_BACKOFF_MS = 1_000;
const RETRYABLE_STATUSES = new Set([502, 503, 504]);

type AttemptOutcome<T> = { response: UpstreamResponse<T> } | { error: unknown; retryable: boolean };

/** One deadline per call: `timedOut` tells a timeout from the caller's own abort. */
interface Deadline {
  timedOut: AbortSignal;
  combined: AbortSignal;
  expiresAt: number;
  dispose(): void;
}

function startDeadline(timeoutMs: number, callerSignal: AbortSignal | undefined): Deadline {
  const timer = new AbortController();
  const handle = setTimeout(() => timer.abort(), timeoutMs);
  return {
    timedOut: timer.signal,
    combined: callerSignal ? AbortSignal.any([callerSignal, timer.signal]) : timer.signal,
    expiresAt: Date.now() + timeoutMs,
    dispose: () => clearTimeout(handle),
  };
}

// encodeURIComponent rather than URLSearchParams: a space becomes %20, not "+", which every
// server decodes the same way.
function buildPath(prefix: string, path: string, query: Record<string, QueryValue> | undefined) {
  const pairs = Object.entries(query ?? {})
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  return pairs.length === 0 ? `${prefix}${path}` : `${prefix}${path}?${pairs.join("&")}`;
}

/** Exponential with "equal jitter": never below half the step, so retries stay spread out. */
function backoffDelay(retriesSoFar: number, baseMs: number): number {
  const step = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** retriesSoFar);
  return step / 2 + Math.random() * (step / 2);
}

/** Maps a fully read response to a result or an error; the body is already consumed. */
function interpretResponse<T>(
  req: UpstreamRequest,
  describe: string,
  response: Dispatcher.ResponseData,
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

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const base = new URL(options.baseUrl);
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw new Error(`upstream base URL must be http or https, got ${base.protocol}`);
  }
  const prefix = base.pathname.replace(/\/+$/, "");
  const keys = new KeyMemory();
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxRetries = options.maxRetries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 50;
  const userAgent = options.userAgent ?? "voicegraph/0.1.0";
  // A Pool keeps connections alive between requests; undici follows no redirects by default.
  const pool = new Pool(base.origin, {
    connections: options.connections ?? 32,
    // An upstream cannot make the gateway buffer an unbounded body.
    maxResponseSize: options.maxResponseBytes ?? 16 * 1024 * 1024,
    connectTimeout: timeoutMs,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  let closing: Promise<void> | undefined;

  async function attempt<T>(
    req: UpstreamRequest,
    path: string,
    describe: string,
    deadline: Deadline,
    traceHeaders: Record<string, string>,
  ): Promise<AttemptOutcome<T>> {
    const fail = (error: unknown): AttemptOutcome<T> => {
      const context = { request: describe, callerSignal: req.signal, deadline: deadline.timedOut };
      const mapped = toUnavailableError(error, context);
      return { error: mapped, retryable: isRetryableTransportError(mapped) };
    };
    const headers: Record<string, string> = {
      authorization: req.authorization,
      accept: "application/json",
      "user-agent": userAgent,
    };
    if (req.body !== undefined) headers["content-type"] = "application/json";
    if (req.requestId !== undefined) headers["x-request-id"] = req.requestId;
    // `traceparent` when tracing is on (upstream-span.ts); empty otherwise.
    Object.assign(headers, traceHeaders);
    let response: Dispatcher.ResponseData;
    try {
      response = await pool.request({
        method: req.method,
        path,
        headers,
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        signal: deadline.combined,
      });
    } catch (error) {
      return fail(error);
    }
    let text: string;
    try {
      // Always read to the end (or fail, which destroys the stream): no body is left dangling.
      text = await response.body.text();
    } catch (error) {
      return fail(error);
    }
    return interpretResponse<T>(req, describe, response, text);
  }

  /*
   * A small loop instead of undici's RetryAgent/RetryHandler, because that handler resumes a
   * partly read body with `Range`/`If-Match` headers (we promise to send nothing but our four),
   * has no jitter, and retries inside one dispatch, so the rate-limit headers of the 503s it
   * swallows would never reach `onRateLimit`. Timeouts are not retried: the deadline spans the
   * whole call, retries and backoff included, and a retry is skipped when its backoff would
   * overrun it (the last real answer is reported instead of a TIMEOUT).
   */
  async function request<T>(req: UpstreamRequest): Promise<UpstreamResponse<T>> {
    // A key the upstream rate-limited is answered here until its window resets: no call.
    // The key is hashed once per call, not once per look-up.
    const key = keyHash(req.authorization);
    const limited = keys.limited(key);
    if (limited) throw limited;
    try {
      const response = await send<T>(req);
      keys.learn(key, { status: response.status });
      return response;
    } catch (error) {
      if (error instanceof UpstreamError) {
        keys.learn(key, { status: error.status, error });
      }
      throw error;
    }
  }

  async function send<T>(req: UpstreamRequest): Promise<UpstreamResponse<T>> {
    const path = buildPath(prefix, req.path, req.query);
    const describe = `${req.method} ${req.path}`;
    const deadline = startDeadline(timeoutMs, req.signal);
    try {
      for (let retries = 0; ; retries++) {
        const outcome = await inUpstreamSpan(req.method, req.path, (traceHeaders) =>
          attempt<T>(req, path, describe, deadline, traceHeaders),
        );
        if ("response" in outcome) return outcome.response;
        const delay = backoffDelay(retries, retryDelayMs);
        const mayRetry =
          req.method === "GET" &&
          outcome.retryable &&
          retries < maxRetries &&
          !deadline.combined.aborted &&
          Date.now() + delay < deadline.expiresAt;
        if (!mayRetry) throw outcome.error;
        try {
          await sleep(delay, undefined, { signal: deadline.combined });
        } catch (error) {
          const context = { request: describe, callerSignal: req.signal };
          throw toUnavailableError(error, { ...context, deadline: deadline.timedOut });
        }
      }
    } finally {
      deadline.dispose();
    }
  }

  async function isReachable(signal?: AbortSignal): Promise<boolean> {
    const deadline = startDeadline(timeoutMs, signal);
    try {
      const response = await pool.request({
        method: "GET",
        path: `${prefix}/v1/organization`,
        headers: { accept: "application/json", "user-agent": userAgent },
        signal: deadline.combined,
      });
      // The answer is all we need; a failure while discarding the body does not change it.
      await response.body.dump().catch(() => undefined);
      return true;
    } catch {
      return false;
    } finally {
      deadline.dispose();
    }
  }

  function close(): Promise<void> {
    closing ??= pool.close();
    return closing;
  }

  // Field by field: an undefined setting keeps its default.
  const reading: UpstreamReading = {
    searchParam: options.reading?.searchParam ?? DEFAULT_READING.searchParam,
    durationUnit: options.reading?.durationUnit ?? DEFAULT_READING.durationUnit,
  };
  return {
    reading,
    request,
    knowsKey: (authorization) => keys.accepted(keyHash(authorization)),
    isReachable,
    close,
  };
}
