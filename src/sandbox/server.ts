import { createServer, type ServerResponse } from "node:http";
import { listenHttp } from "../listen.ts";
import { apiKeys } from "./auth.ts";
import { CursorCodec } from "./cursor.ts";
import { DIALECTS, type DialectName } from "./dialects.ts";
import { FaultQueue } from "./faults.ts";
import { resolveOptions } from "./options.ts";
import { FixedWindowRateLimiter } from "./rate-limiter.ts";
import { handleRequest, type SandboxRuntime } from "./request-pipeline.ts";
import { Router } from "./router.ts";
import { ROUTES } from "./routes.ts";
import { seedStore } from "./seed.ts";

export interface SandboxOptions {
  /** Requests per window per organization; default 100_000. */
  rateLimit?: number;
  /** Fixed window length; default 60. */
  rateWindowSeconds?: number;
  /** Added latency on every request; default 0. */
  latencyMs?: number;
  /** 0..1 fraction of /v1 requests answered 500 INTERNAL_ERROR (seed error body); default 0. */
  errorRate?: number;
  /** 0..1 fraction of /v1 requests never answered (until the client gives up or close()); default 0. */
  hangRate?: number;
  /** How long a live (IN_PROGRESS) call lasts before it ends by itself; default 90_000. */
  callDurationMs?: number;
  /** A new live call starts every this often (per org); default 20_000. */
  callIntervalMs?: number;
  /** Cursors older than this are stale -> 400 INVALID_CURSOR; default 15 minutes. */
  cursorTtlMs?: number;
  /** The campaigns endpoint's own tighter bound: a larger `limit` (up to 100) gets a short page; default 100. */
  campaignsMaxLimit?: number;
  /** For fault injection; default Math.random. */
  random?: () => number;
  /**
   * The sandbox's clock (live calls' durations and arrivals, rate-limit windows, cursor ages);
   * default Date.now. A test that must know when the list moves brings its own.
   */
  now?: () => number;
  /** The reading of the seed's silent spots (src/sandbox/dialects.ts); default "standard". */
  dialect?: DialectName;
  /**
   * Organizations added beside the demo ones, each with its own key (`extraOrganizationKey`) and
   * `EXTRA_ORGANIZATION_AGENTS` agents, for loads of many distinct keys (the bench); default 0.
   */
  extraOrganizations?: number;
}

export interface RecordedRequest {
  method: string;
  /** Path + query exactly as received, e.g. "/v1/conversations?limit=10&offset=0". */
  url: string;
  /** Pathname only. */
  path: string;
  query: Record<string, string>;
  /** Lower-cased names, as received (includes authorization). */
  headers: Record<string, string>;
  /** Parsed JSON, or the raw string if it was not JSON, or undefined. */
  body: unknown;
  /** Status answered (0 if hung or destroyed). */
  status: number;
  /** The rate-limit window it was counted in, by its reset (Unix seconds); unset if none was. */
  rateLimitReset?: number;
}

/** One-shot/counted injected fault, matched in order before normal handling. */
export interface Fault {
  /** Match method (default any). */
  method?: string;
  /** Match pathname exactly (string) or by regex (default any). */
  path?: string | RegExp;
  /** How many matching requests it affects (default 1). */
  times?: number;
  /** Answer this status... */
  status?: number;
  /** ...with this body (object -> JSON; string -> raw text/plain); default: seed error body. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait before answering (or before normal handling if no status). */
  delayMs?: number;
  /** Never answer. */
  hang?: boolean;
  /** Destroy the socket without answering (connection reset). */
  destroy?: boolean;
}

export interface Sandbox {
  /** Base URL WITHOUT /v1, e.g. "http://127.0.0.1:54321". */
  readonly url: string;
  /** Every /v1 request received (openapi.json included), in arrival order. */
  readonly requests: RecordedRequest[];
  clearRequests(): void;
  injectFault(fault: Fault): void;
  clearFaults(): void;
  /** Stops timers, destroys hung sockets, closes the server. */
  close(): Promise<void>;
}

/** Starts a sandbox with its own freshly seeded store on `host:port` (default 127.0.0.1:0). */
export async function startSandbox(
  options: SandboxOptions & { port?: number; host?: string } = {},
): Promise<Sandbox> {
  const { port = 0, host = "127.0.0.1", ...rest } = options;
  const resolved = resolveOptions(rest);
  const startMs = resolved.now();
  const timers = new Set<NodeJS.Timeout>();
  const dialect = DIALECTS[resolved.dialect];
  const runtime: SandboxRuntime = {
    options: resolved,
    dialect,
    store: seedStore(startMs, resolved.callDurationMs, resolved.extraOrganizations),
    keys: apiKeys(resolved.extraOrganizations),
    router: new Router(ROUTES),
    limiter: new FixedWindowRateLimiter(resolved.rateLimit, resolved.rateWindowSeconds),
    cursors: new CursorCodec(resolved.cursorTtlMs, dialect.invalidCursorStatus),
    faults: new FaultQueue(),
    schedule: {
      startMs,
      callDurationMs: resolved.callDurationMs,
      callIntervalMs: resolved.callIntervalMs,
    },
    requests: [],
    hung: new Set<ServerResponse>(),
    sleep: (ms) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, ms);
        timers.add(timer);
      }),
  };

  const server = createServer((req, res) => {
    handleRequest(runtime, req, res).catch((error: unknown) => {
      console.error("sandbox: request failed", error);
      res.destroy();
    });
  });
  const url = await listenHttp(server, port, host);

  let closing: Promise<void> | undefined;
  return {
    url,
    requests: runtime.requests,
    clearRequests: () => {
      runtime.requests.length = 0;
    },
    injectFault: (fault) => runtime.faults.add(fault),
    clearFaults: () => runtime.faults.clear(),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        // Waiting requests are abandoned: their timers are dropped and every socket destroyed.
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        for (const res of runtime.hung) res.destroy();
        runtime.hung.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
