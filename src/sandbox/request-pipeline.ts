import type { IncomingMessage, ServerResponse } from "node:http";
import { type Caller, forbiddenWrite, identifyCaller, unauthorized } from "./auth.ts";
import type { CursorCodec } from "./cursor.ts";
import { type Dialect, dialectErrorCode, formatDates } from "./dialects.ts";
import { ApiError, defaultCodeForStatus, errorBody } from "./error-codes.ts";
import type { FaultQueue } from "./faults.ts";
import { newRequestId } from "./ids.ts";
import { advanceLiveCalls, type LiveCallSchedule } from "./live-calls.ts";
import type { ResolvedOptions } from "./options.ts";
import { QueryReader } from "./query-params.ts";
import type { FixedWindowRateLimiter } from "./rate-limiter.ts";
import { loggedBody, readRequestBody } from "./request-body.ts";
import { sendResponse } from "./responses.ts";
import type { Router } from "./router.ts";
import { isWrite, routeQuery } from "./routes.ts";
import type { RecordedRequest } from "./server.ts";
import type { Store } from "./store.ts";
import type { JsonObject } from "./vocabulary.ts";

/** Everything one sandbox instance shares between its requests. */
export interface SandboxRuntime {
  options: ResolvedOptions;
  dialect: Dialect;
  store: Store;
  /** The keys it knows, with whom each acts for. */
  keys: ReadonlyMap<string, Caller>;
  router: Router;
  limiter: FixedWindowRateLimiter;
  cursors: CursorCodec;
  faults: FaultQueue;
  schedule: LiveCallSchedule;
  requests: RecordedRequest[];
  /** Responses deliberately never answered; destroyed on close. */
  hung: Set<ServerResponse>;
  /** Waits in progress (latency, fault delays); cleared on close. */
  sleep(ms: number): Promise<void>;
}

function isV1(path: string): boolean {
  return path === "/v1" || path.startsWith("/v1/");
}

/** The path the API serves: a dialect that accepts unprefixed paths reads `/x` as `/v1/x`. */
function apiPath(dialect: Dialect, pathname: string): string {
  return dialect.unprefixedPaths && !isV1(pathname) ? `/v1${pathname}` : pathname;
}

function record(req: IncomingMessage, url: URL): RecordedRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return {
    method: req.method ?? "GET",
    url: req.url ?? "/",
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers,
    body: undefined,
    status: 0,
  };
}

function hang(runtime: SandboxRuntime, res: ServerResponse): void {
  runtime.hung.add(res);
  res.on("close", () => runtime.hung.delete(res));
}

/**
 * Order of checks: injected faults and latency, then the rate limit (every answer carries its
 * headers), then paths outside /v1 (404), the public OpenAPI document, authentication (401),
 * random faults, routing (404/405), read-only keys (403), and finally the operation.
 */
export async function handleRequest(
  runtime: SandboxRuntime,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const requestId = newRequestId();
  res.setHeader("X-Request-Id", requestId);
  const url = new URL(req.url ?? "/", "http://sandbox.invalid");
  const method = (req.method ?? "GET").toUpperCase();
  const { dialect } = runtime;
  const path = apiPath(dialect, url.pathname);
  // The dialect's error body: its code catalogue, with or without the requestId.
  const errorAnswer = (code: string, status: number, message: string, details?: JsonObject) =>
    errorBody(
      dialectErrorCode(dialect, code, status),
      message,
      dialect.errorRequestId ? requestId : undefined,
      details,
    );
  const entry = isV1(path) ? record(req, url) : undefined;
  if (entry !== undefined) {
    runtime.requests.push(entry);
    res.on("finish", () => {
      entry.status = res.statusCode;
    });
  }
  const body = await readRequestBody(req);
  if (entry !== undefined) entry.body = loggedBody(body);

  const fault = runtime.faults.take(method, path);
  if (fault.delayMs > 0) await runtime.sleep(fault.delayMs);
  if (fault.kind === "hang") return hang(runtime, res);
  if (fault.kind === "destroy") {
    req.socket.destroy();
    return;
  }
  if (fault.kind === "answer") {
    const code = defaultCodeForStatus(fault.status);
    const answer =
      fault.body !== undefined
        ? fault.body
        : errorAnswer(code, fault.status, `Injected fault: HTTP ${fault.status}.`);
    return sendResponse(res, fault.status, answer, fault.headers);
  }
  if (runtime.options.latencyMs > 0) await runtime.sleep(runtime.options.latencyMs);

  const nowMs = runtime.options.now();
  const authorization = req.headers.authorization;
  const caller = identifyCaller(authorization, runtime.keys);
  // Unknown callers have no organization: they share a bucket per remote address.
  const bucket = caller ? `org:${caller.organizationId}` : `addr:${req.socket.remoteAddress}`;
  const decision = runtime.limiter.consume(bucket, nowMs);
  if (entry !== undefined) entry.rateLimitReset = decision.reset;
  res.setHeader("X-RateLimit-Limit", decision.limit);
  res.setHeader("X-RateLimit-Remaining", decision.remaining);
  res.setHeader("X-RateLimit-Reset", decision.reset);

  try {
    if (decision.limited) {
      throw new ApiError(
        "RATE_LIMITED",
        "Rate limit exceeded; retry after the window resets.",
        { limit: decision.limit, reset: decision.reset, retryAfter: decision.retryAfter },
        { "Retry-After": String(decision.retryAfter) },
      );
    }
    if (!isV1(path)) throw new ApiError("NOT_FOUND", `No such path: ${path}.`, { path });
    const match = runtime.router.match(method, path);
    if (match.kind === "found" && match.route.kind === "public-document") {
      return sendResponse(res, 200, match.route.document());
    }
    if (caller === undefined) throw unauthorized(authorization, dialect.authDetails);
    const { random, hangRate, errorRate } = runtime.options;
    if (hangRate > 0 && random() < hangRate) return hang(runtime, res);
    if (errorRate > 0 && random() < errorRate) {
      throw new ApiError("INTERNAL_ERROR", "Injected internal error.");
    }
    if (match.kind === "not-found") {
      throw new ApiError("NOT_FOUND", `No operation at ${method} ${path}.`, { method, path });
    }
    if (match.kind === "method-not-allowed") {
      const allow = match.allow.join(", ");
      throw new ApiError(
        "METHOD_NOT_ALLOWED",
        `${method} is not allowed on ${path}; allowed: ${allow}.`,
        { method, allowed: match.allow },
        { Allow: allow },
      );
    }
    if (match.route.kind !== "operation") throw new Error("unreachable: unknown route kind");
    if (isWrite(method) && caller.readOnly) throw forbiddenWrite(dialect.authDetails);
    const org = runtime.store.get(caller.organizationId);
    if (org === undefined) throw new Error(`no data for ${caller.organizationId}`);
    advanceLiveCalls(org, nowMs, runtime.schedule);
    const result = match.route.operation({
      org,
      caller,
      params: match.params,
      query: new QueryReader(url.searchParams, routeQuery(match.route, dialect)),
      body,
      nowMs,
      cursors: runtime.cursors,
      options: runtime.options,
      dialect,
    });
    sendResponse(res, result.status, formatDates(dialect, result.body), result.headers);
  } catch (error) {
    if (error instanceof ApiError) {
      const answer = errorAnswer(error.code, error.status, error.message, error.details);
      return sendResponse(res, error.status, answer, error.headers);
    }
    console.error("sandbox: unexpected error", error);
    sendResponse(res, 500, errorAnswer("INTERNAL_ERROR", 500, "Internal server error."));
  }
}
