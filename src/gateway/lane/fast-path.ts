import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { Plugin } from "graphql-yoga";
import { gatewayError } from "../../errors.ts";
import type { CallSignal } from "../../upstream/call-signal.ts";
import { declaredWithin } from "../arrival/use-request-size-limit.ts";
import {
  type AdapterHook,
  type YogaCore,
  type YogaHandler,
  yogaCoreOf,
} from "../assembly/yoga-adapter.ts";
import { inThisRequestScope } from "../observability/logger.ts";
import { refusalResponse } from "../shared/http-status.ts";
import { createEligibility, type Eligibility, isJsonOnly } from "./fast-path-eligibility.ts";
import { writeNodeResponse } from "./whatwg-node-adapter.ts";

/** yoga's node:http listener (the server adapter), with the adapter's `waitUntil`. */
type Fallback = ((req: IncomingMessage, res: ServerResponse) => unknown) & {
  waitUntil?: (promise: Promise<void> | void) => void;
};

export interface FastPathOptions {
  /** MAX_REQUEST_BYTES: a larger declared body goes to yoga, which refuses it. */
  maxRequestBytes: number;
  /** MAX_TOKENS: a longer document goes to yoga, which refuses it. */
  maxTokens: number;
  /**
   * Read when yoga is made: false while an entry of the pipeline sends the lane aside (session
   * mode, trusted documents only), and then every request goes to yoga.
   */
  enabled: () => boolean;
  /**
   * Asked first (prepared-lane.ts): answers a query yoga has validated and compiled, and
   * says whether it did; what it leaves in the server context is yoga's to reuse.
   */
  lane?: {
    serve(
      request: BufferedJsonRequest,
      params: LaneParams,
      res: ServerResponse,
      serverContext: Record<string, unknown>,
    ): Promise<boolean>;
  };
}

/** The body of a request the fast path read: one operation's parameters. */
interface LaneParams {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

export interface FastPath {
  /** Captures yoga's server and its request/response hooks; goes in the gateway's plugins. */
  readonly plugin: Plugin;
  /**
   * Serves `req` on the fast path when it is the common case, else hands it to `fallback` (yoga's
   * node:http listener), with its body when it was read. `onServed` is told when it was served.
   */
  serve(req: IncomingMessage, res: ServerResponse, fallback: Fallback, onServed?: () => void): void;
}

/**
 * What yoga's handlers and plugins see of a fast-path request: its method, URL, headers, parsed
 * JSON body (`json()`) and the signal of its client's going away. The body was read whole within
 * the size limit (checked from Content-Length before reading), so there is no stream left (`body`
 * null) for the size limits to count.
 */
class BufferedJsonRequest {
  readonly method = "POST";
  readonly body = null;
  readonly url: string;
  readonly headers: Headers;
  readonly #parsed: unknown;
  readonly #res: ServerResponse;
  #signal: AbortSignal | undefined;
  constructor(url: string, headers: Headers, parsed: unknown, res: ServerResponse) {
    this.url = url;
    this.headers = headers;
    this.#parsed = parsed;
    this.#res = res;
  }
  /** yoga's JSON body parser reads this. */
  json(): unknown {
    return this.#parsed;
  }
  /** Made when first read: the prepared lane answers most requests without it. */
  get signal(): AbortSignal {
    if (this.#signal === undefined) {
      const controller = new AbortController();
      onDisconnect(this.#res, (reason) => controller.abort(reason));
      this.#signal = controller.signal;
    }
    return this.#signal;
  }
  /** Aborts `operation` when the client goes away, as the signal would be: no signal made. */
  followDisconnect(operation: Pick<CallSignal, "abort">): void {
    const signal = this.#signal;
    if (signal === undefined) {
      onDisconnect(this.#res, (reason) => operation.abort(reason));
    } else if (signal.aborted) {
      operation.abort(signal.reason);
    } else {
      signal.addEventListener("abort", () => operation.abort(signal.reason), { once: true });
    }
  }
}

/**
 * Calls `gone` once when the client goes away before its answer is written (the response closes
 * or fails unfinished), as whatwg-node's adapter aborts a request's signal: the context's
 * upstream calls and yoga's execution cancellation follow it, as on yoga's own path.
 */
function onDisconnect(res: ServerResponse, gone: (reason: unknown) => void): void {
  let told = false;
  // A response that finished was answered: its close is no disconnect.
  const check = (error?: unknown) => {
    if (told || res.writableFinished) return;
    told = true;
    gone(error ?? res.errored ?? undefined);
  };
  res.on("error", check);
  res.on("close", check);
}

/**
 * The fast path (docs/operations.md: "The fast path"): a JSON POST of one query or mutation
 * to the GraphQL endpoint, from a non-browser client, runs through yoga's own `handle` and every
 * plugin hook in yoga's order, as whatwg-node's adapter would run them — but from node:http
 * directly: no Fetch Request over a body stream, a body read in one piece.
 * Anything else goes to yoga's listener unchanged.
 */
export function createFastPath(options: FastPathOptions): FastPath {
  const eligibility = createEligibility(options.maxTokens);
  let core: YogaCore | undefined;
  let onRequest: AdapterHook[] = [];
  let onResponse: AdapterHook[] = [];

  const plugin: Plugin = {
    onYogaInit({ yoga }) {
      const server = yogaCoreOf(yoga);
      // Instrumented servers wrap every stage: they keep the adapter's own path.
      if (!options.enabled() || server.instrumented) return;
      core = server;
      onRequest = server.hooks("onRequest");
      onResponse = server.hooks("onResponse");
    },
  };

  function qualifies(req: IncomingMessage): boolean {
    if (core === undefined || req.method !== "POST") return false;
    if (req.url !== core.graphqlEndpoint) return false;
    const h = req.headers;
    // The URL is built as whatwg-node builds it from a Host header (node:http, no TLS here).
    if (h.host === undefined) return false;
    if (h.origin !== undefined || h["transfer-encoding"] !== undefined) return false;
    if (!/^application\/json\s*(;\s*charset=utf-8\s*)?$/i.test(h["content-type"] ?? "")) {
      return false;
    }
    if (h.accept !== undefined && !isJsonOnly(h.accept)) return false;
    const length = h["content-length"];
    return (
      length !== undefined &&
      /^[1-9]\d*$/.test(length) &&
      declaredWithin(length, options.maxRequestBytes)
    );
  }

  async function run(
    request: BufferedJsonRequest,
    params: LaneParams,
    req: IncomingMessage,
    res: ServerResponse,
    waitUntil: Fallback["waitUntil"],
  ) {
    const c = core as YogaCore;
    // The context the adapter gives yoga for a node:http request.
    const serverContext: Record<string, unknown> = { req, res, waitUntil };
    if (options.lane) {
      try {
        if (await options.lane.serve(request, params, res, serverContext)) return;
      } catch {
        // yoga answers it, as it answers anything the lane does not: the same throw, its way.
      }
    }
    let response: Response | undefined;
    // One payload for every onRequest hook (the adapter builds one per hook): each hook sees the
    // request and handler the ones before it set. Every hook reads the URL (the metrics path).
    const payload = {
      request: request as unknown as Request,
      setRequest(next: Request) {
        payload.request = next;
      },
      serverContext,
      fetchAPI: c.fetchAPI,
      url: new c.fetchAPI.URL(request.url, "http://localhost"),
      requestHandler: c.handle,
      setRequestHandler(next: YogaHandler) {
        payload.requestHandler = next;
      },
      endResponse(early: Response) {
        response = early;
      },
    };
    try {
      for (const hook of onRequest) {
        const done = hook(payload);
        if (done instanceof Promise) await done;
        if (response) break;
      }
      const current = payload.request;
      if (response === undefined) {
        const handled = payload.requestHandler(current, serverContext);
        response = (handled instanceof Promise ? await handled : handled) as Response;
      }
      for (const hook of onResponse) {
        const done = hook({
          request: current,
          response,
          serverContext,
          setResponse: (next: Response) => {
            response = next;
          },
          fetchAPI: c.fetchAPI,
        });
        if (done instanceof Promise) await done;
      }
    } catch (error) {
      // A throw of yoga's handler is a catalogue error too, never a stack trace in text.
      const requestId = serverContext.requestId as string | undefined;
      response = refusalResponse(
        gatewayError("INTERNAL_SERVER_ERROR", "Unexpected error."),
        requestId,
        c.fetchAPI,
      );
      c.logger.error(`Unexpected error while handling request: ${(error as Error).message}`);
    }
    await writeNodeResponse(response as Response, res, req);
  }

  return {
    plugin,
    serve(req, res, fallback, onServed) {
      if (!qualifies(req)) {
        fallback(req, res);
        return;
      }
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      // The body's events come in the socket's async context: the handling stays in the caller's
      // (its log scope: listen's inRequestScope).
      req.once(
        "end",
        inThisRequestScope(() => {
          const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
          const parsed = singleOperation(body, eligibility);
          if (parsed === undefined) {
            // yoga reads the body from here, as it would have from the socket.
            (req as IncomingMessage & { body?: unknown }).body = Readable.from([body]);
            fallback(req, res);
            return;
          }
          const c = core as YogaCore;
          const headers = new c.fetchAPI.Headers(req.headers as Record<string, string>);
          const url = `http://${req.headers.host}${req.url}`;
          const request = new BufferedJsonRequest(url, headers, parsed, res);
          onServed?.();
          run(request, parsed as unknown as LaneParams, req, res, fallback.waitUntil).catch(
            (error: unknown) => {
              c.logger.error(
                `Unexpected error while handling request: ${(error as Error).message}`,
              );
            },
          );
        }),
      );
    },
  };
}

/** The body as a single query or mutation's parameters, or undefined for yoga to answer. */
function singleOperation(
  body: Buffer,
  eligibility: Eligibility,
): Record<string, unknown> | undefined {
  let params: unknown;
  try {
    params = JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
  if (typeof params !== "object" || params === null || Array.isArray(params)) return undefined;
  const record = params as Record<string, unknown>;
  for (const key in record) {
    if (key !== "query" && key !== "variables" && key !== "operationName") return undefined;
  }
  const { query, variables, operationName } = record;
  if (typeof query !== "string") return undefined;
  if (operationName != null && typeof operationName !== "string") return undefined;
  if (variables != null && (typeof variables !== "object" || Array.isArray(variables))) {
    return undefined;
  }
  const name = (operationName as string | null | undefined) ?? null;
  const kind = eligibility.operationKindOf(query, name);
  return kind === "query" || kind === "mutation" ? record : undefined;
}
