import type { CallCancel } from "./call-signal.ts";
import { backoffDelay, type Deadline, startDeadline } from "./call-timing.ts";
import { DEFAULT_READING, type UpstreamReading } from "./conversation-reading.ts";
import { UpstreamError } from "./errors.ts";
import { exchange, UnwrittenCalls } from "./exchange.ts";
import { createKeyHasher, KeyMemory } from "./key-memory.ts";
import { type OperationCall, operationOf } from "./operations.ts";
import type { RateLimit } from "./rate-limit.ts";
import { type AttemptOutcome, interpretResponse } from "./response-parsing.ts";
import { isRetryableTransportError, toUnavailableError } from "./transport-errors.ts";
import { createPool } from "./undici-adapter.ts";
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
  /** What the upstream said of each key (429 blocks); default a memory of the client's own. */
  keyMemory?: KeyMemory;
}

/** The client's defaults, declared once (the gateway's environment reads them too). */
export const UPSTREAM_DEFAULTS = {
  timeoutMs: 10_000,
  connections: 32,
  maxRetries: 2,
  retryDelayMs: 50,
  maxResponseBytes: 16 * 1024 * 1024,
} as const;

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
  /** The operation called, when the caller knows it (the REST client does); else found by path. */
  operation?: OperationCall;
  /**
   * The key's hash, as the caller's gateway names it (createKeyHasher), once per operation: every
   * per-key state of the client is keyed by it. Without it, the client hashes with a secret of its own.
   */
  keyHash?: string;
  /** Client disconnect: aborts the upstream call. */
  signal?: CallCancel;
  /** A live poller's read: already one for the whole fleet by its lease, never a fleet flight too. */
  leased?: true;
  /** The gateway's request ID, sent upstream as `X-Request-Id`. */
  requestId?: string;
  /** Called for every response carrying the three X-RateLimit-* headers, retried ones included. */
  onRateLimit?: (rateLimit: RateLimit) => void;
  /** Told when the answer was another operation's call (joined) or the read cache's (sharing.ts). */
  onShared?: (how: "joined" | "cached" | "polled") => void;
  /** `bypass`: this read is not answered from the read cache (a client's `Cache-Control: no-cache`). */
  cache?: "use" | "bypass";
  /** Budget: asked before each retry (false: none, the last failure stands); told each answer's length. */
  mayRetry?: () => boolean;
  onAnswerRead?: (length: number) => void;
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
  /** The keep-alive pool's connections (UPSTREAM_CONNECTIONS), when the client knows them. */
  readonly connections?: number;
  request<T>(req: UpstreamRequest): Promise<UpstreamResponse<T>>;
  /**
   * Whether the upstream has accepted the key of this hash lately (then its calls need no
   * probe): the hash its requests carried (UpstreamRequest.keyHash).
   */
  knowsKey?(keyHash: string): boolean;
  /**
   * An answer for the key this client did not get itself (the read cache's entry, another
   * instance's flight): learned as if it had, so the key counts as accepted (or refused) here
   * too. The cache holds entries only for keys the upstream accepted (a refusal drops them). A
   * 429 is not learned: the fleet shares its blocks already (fleet/key-limits.ts).
   */
  learnKey?(keyHash: string, outcome: { status: number; error?: UpstreamError }): void;
  /** GET <base>/v1/organization without credentials: any HTTP answer (401 included) means reachable. */
  isReachable(signal?: AbortSignal): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The path and query exactly as sent (after the base URL's prefix): what makes two calls the same
 * call for coalescing and the read cache (sharing.ts). encodeURIComponent rather than
 * URLSearchParams: a space becomes %20, not "+", which every server decodes the same way.
 */
export function wirePath(path: string, query: Record<string, QueryValue> | undefined): string {
  if (query === undefined) return path;
  const pairs = Object.entries(query)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  return pairs.length === 0 ? path : `${path}?${pairs.join("&")}`;
}

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const base = new URL(options.baseUrl);
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw new Error(`upstream base URL must be http or https, got ${base.protocol}`);
  }
  const prefix = base.pathname.replace(/\/+$/, "");
  const keys = options.keyMemory ?? new KeyMemory();
  // For a request that does not carry its key's hash (the gateway's layers always send one).
  const keyHash = createKeyHasher();
  const timeoutMs = options.timeoutMs ?? UPSTREAM_DEFAULTS.timeoutMs;
  const maxRetries = options.maxRetries ?? UPSTREAM_DEFAULTS.maxRetries;
  const retryDelayMs = options.retryDelayMs ?? UPSTREAM_DEFAULTS.retryDelayMs;
  const userAgent = options.userAgent ?? "voicegraph/0.1.0";
  // A Pool keeps connections alive between requests; undici follows no redirects by default.
  const pool = createPool(base.origin, {
    connections: options.connections ?? UPSTREAM_DEFAULTS.connections,
    // An upstream cannot make the gateway buffer an unbounded body.
    maxResponseSize: options.maxResponseBytes ?? UPSTREAM_DEFAULTS.maxResponseBytes,
    connectTimeout: timeoutMs,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  // This client's calls not yet written: its answers wait for them (exchange.ts), no other's.
  const unwritten = new UnwrittenCalls();
  let closing: Promise<void> | undefined;

  /** One attempt: its answer interpreted, or its failure with whether a retry may help. */
  function attempt<T>(
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
    // Always read to the end (or fail, which destroys the socket's request): nothing dangles.
    return exchange(
      pool,
      unwritten,
      {
        method: req.method,
        path,
        headers,
        body: req.body === undefined ? null : JSON.stringify(req.body),
      },
      deadline,
      (answer) => {
        req.onAnswerRead?.(answer.text.length);
        return interpretResponse<T>(req, describe, answer, answer.text);
      },
      fail,
    );
  }

  /*
   * A small loop instead of undici's RetryAgent/RetryHandler, because that handler resumes a
   * partly read body with `Range`/`If-Match` headers (we promise to send nothing but our four),
   * has no jitter, and retries inside one dispatch, so the rate-limit headers of the 503s it
   * swallows would never reach `onRateLimit`. Timeouts are not retried: the deadline spans the
   * whole call, retries and backoff included, and a retry is skipped when its backoff would
   * overrun it (the last real answer is reported instead of a TIMEOUT).
   * One async function per call, key memory and retries together: each layer was a promise.
   */
  async function request<T>(req: UpstreamRequest): Promise<UpstreamResponse<T>> {
    // A key the upstream rate-limited is answered here until its window resets: no call.
    const hash = req.keyHash ?? keyHash(req.authorization);
    const limited = keys.limited(hash);
    if (limited) throw limited;
    const path = `${prefix}${wirePath(req.path, req.query)}`;
    const describe = `${req.method} ${req.path}`;
    const deadline = startDeadline(timeoutMs, req.signal);
    // Whether the operation may be sent again is a fact of its row (operations.ts): reads only.
    const retry = operationOf(req)?.row.retry === true;
    try {
      for (let retries = 0; ; retries++) {
        const outcome = await inUpstreamSpan(req, (traceHeaders) =>
          attempt<T>(req, path, describe, deadline, traceHeaders),
        );
        if ("response" in outcome) {
          keys.learn(hash, { status: outcome.response.status });
          return outcome.response;
        }
        const delay = backoffDelay(retries, retryDelayMs);
        const mayRetry =
          retry &&
          outcome.retryable &&
          retries < maxRetries &&
          !deadline.aborted &&
          Date.now() + delay < deadline.expiresAt &&
          (req.mayRetry?.() ?? true);
        if (!mayRetry) throw outcome.error;
        try {
          await deadline.sleep(delay);
        } catch (error) {
          const context = { request: describe, callerSignal: req.signal };
          throw toUnavailableError(error, { ...context, deadline: deadline.timedOut });
        }
      }
    } catch (error) {
      if (error instanceof UpstreamError) {
        keys.learn(hash, { status: error.status, error });
      }
      throw error;
    } finally {
      deadline.dispose();
    }
  }

  async function isReachable(signal?: AbortSignal): Promise<boolean> {
    const deadline = startDeadline(timeoutMs, signal);
    try {
      // Any whole HTTP answer will do (read through the same dispatch handler as every call).
      return await exchange(
        pool,
        unwritten,
        {
          method: "GET",
          path: `${prefix}/v1/organization`,
          headers: { accept: "application/json", "user-agent": userAgent },
        },
        deadline,
        () => true,
        () => false,
      );
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
    connections: options.connections ?? UPSTREAM_DEFAULTS.connections,
    request,
    knowsKey: (hash) => keys.accepted(hash),
    learnKey: (hash, outcome) => {
      if (outcome.status !== 429) keys.learn(hash, outcome);
    },
    isReachable,
    close,
  };
}
