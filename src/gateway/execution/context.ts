import { initContextCache } from "@pothos/core";
import type { Plugin } from "graphql-yoga";
import type { CursorKey } from "../../connections/cursor.ts";
import { gatewayError } from "../../errors.ts";
import type { ConversationStatusFeed, SchemaContext } from "../../schema/context.ts";
import { CallSignal } from "../../upstream/call-signal.ts";
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from "../../upstream/client.ts";
import type { KeyHasher } from "../../upstream/key-memory.ts";
import type { RateLimit } from "../../upstream/rate-limit.ts";
import { createRestApi, type RestTransport } from "../../upstream/rest-api.ts";
import type { SharedHow } from "../../upstream/sharing.ts";
import type { Session } from "../session/verify-session.ts";
import type { OperationFacts } from "./operation-facts.ts";

/** What one GraphQL operation did upstream: reported in `extensions` and response headers. */
export class UpstreamUsage {
  calls = 0;
  /** The most restrictive rate-limit answer seen (lowest `remaining`). */
  rateLimit: RateLimit | undefined;
  /**
   * The runtime budget: past this many real calls, no call starts and the fields left fail with
   * COST_LIMIT_EXCEEDED. A subscription's own context makes no call (its hub polls, and each
   * event gets a context and a budget of its own), so every operation has one.
   */
  readonly limit: number | undefined;

  /** Calls answered by another operation's identical call in flight, or by the read cache. */
  joinedCalls = 0;
  cacheHits = 0;

  /** Characters of upstream answers read so far, and the most the operation may read. */
  answerBytes = 0;
  readonly maxAnswerBytes: number | undefined;

  constructor(limit?: number, maxAnswerBytes?: number) {
    this.limit = limit;
    this.maxAnswerBytes = maxAnswerBytes;
  }

  /** A retry is a real call too: counted, or refused (false) once the budget is spent. */
  mayRetry = (): boolean => {
    if (this.limit !== undefined && this.calls >= this.limit) return false;
    this.calls += 1;
    return true;
  };

  recordAnswer = (length: number): void => {
    this.answerBytes += length;
    if (this.maxAnswerBytes !== undefined && this.answerBytes > this.maxAnswerBytes) {
      throw gatewayError(
        "COST_LIMIT_EXCEEDED",
        `This operation's upstream answers passed ${this.maxAnswerBytes} bytes; ` +
          "this field was not loaded. Ask for smaller pages or fewer nested lists.",
        { cost: { maxUpstreamBytes: this.maxAnswerBytes } },
      );
    }
  };

  /** A call counted by recordCall that went to no upstream after all (upstream/sharing.ts). */
  recordShared = (how: SharedHow): void => {
    this.calls -= 1;
    if (how === "joined") this.joinedCalls += 1;
    else if (how === "cached") this.cacheHits += 1;
  };

  recordCall = (): void => {
    if (this.limit !== undefined && this.calls >= this.limit) {
      throw gatewayError(
        "COST_LIMIT_EXCEEDED",
        `This operation has made the ${this.limit} upstream calls it may make; ` +
          "this field was not loaded. Ask for smaller pages or fewer nested lists.",
        { cost: { limit: this.limit } },
      );
    }
    this.calls += 1;
  };

  recordRateLimit = (rateLimit: RateLimit): void => {
    if (!this.rateLimit || rateLimit.remaining < this.rateLimit.remaining) {
      this.rateLimit = rateLimit;
    }
  };
}

/** The schema's context, plus what the gateway's plugins keep per operation. */
export interface GatewayContext extends SchemaContext {
  readonly usage: UpstreamUsage;
  /**
   * Aborts every upstream call of the operation: at its deadline (use-operation-deadline.ts), or
   * when its caller goes away, the first reason kept.
   */
  readonly operation: CallSignal;
  /** Sent upstream as `X-Request-Id`, answered in the response header and error extensions. */
  readonly requestId: string;
  /** In session mode, who the token says is calling. */
  readonly session?: Session;
  /** What the plugins learned about the operation before it ran (operation-facts.ts). */
  facts?: Partial<OperationFacts>;
  /** Where this operation's upstream calls go: a live query records or answers them (live/). */
  readonly reads: ReadRoute;
  /** Stops the operation's deadline while it runs (use-operation-deadline.ts). */
  stopDeadline?: (() => void) | undefined;
  /** Takes the operation's listener off the caller's signal (settle() does, once answered). */
  readonly unfollowCaller: () => void;
}

/** Sends one upstream request as the operation would; a read hook may answer it instead. */
/** What a plugin's onExecute returns (envelop's OnExecuteHookResult, which yoga does not export). */
export type ExecuteHooks = Exclude<
  Awaited<ReturnType<NonNullable<Plugin<GatewayContext>["onExecute"]>>>,
  void
>;

export type SendUpstream = (req: UpstreamRequest) => Promise<UpstreamResponse<unknown>>;

/**
 * A live query's hold on its operation's calls (live/live-reads.ts): it sees every request
 * before it is sent, and may record its answer or answer it from a poller's fresh copy.
 */
export interface ReadRoute {
  hook?: (req: UpstreamRequest, send: SendUpstream) => Promise<UpstreamResponse<unknown>>;
}

export interface ContextDependencies {
  upstream: UpstreamClient;
  /** The gateway's naming of keys (createKeyHasher): the upstream's per-key state is keyed by it. */
  keyHash: KeyHasher;
  conversationStatusHub: ConversationStatusFeed;
  cursorKey: CursorKey;
  /** The runtime budget of real upstream calls per operation (MAX_UPSTREAM_CALLS). */
  maxUpstreamCalls: number;
  /** The bytes of upstream answers one operation may read (MAX_UPSTREAM_BYTES). */
  maxUpstreamBytes?: number;
  /** Told of every upstream call (metrics). */
  onCallDone?: (call: { route: string; status: string; seconds: number }) => void;
  /** Told of every call answered without an upstream call of its own (metrics). */
  onCallShared?: (call: { route: string; how: SharedHow }) => void;
  /** Told of every write answered 2xx, by the key that made it (live queries re-read at once). */
  onWrite?: (req: UpstreamRequest) => void;
}

/**
 * What the operations of one HTTP request share: a batch's operations spend one usage, so one
 * budget (MAX_BATCH_SIZE). It lives in yoga's server context, one per request, which yoga hands
 * to each operation of a batch as its context's prototype; gone with the request.
 */
export interface BatchUsageContext {
  batchUsage?: { usage?: UpstreamUsage };
}

/** Gives each HTTP request the place its operations share their usage in (BatchUsageContext). */
export function useBatchUsage(): Plugin<Record<string, never>, BatchUsageContext> {
  return {
    onRequest({ serverContext }) {
      serverContext.batchUsage = {};
    },
  };
}

/** Reads the header from a Fetch API request, or from graphql-ws connection params. */
export function authorizationFrom(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/**
 * The key in graphql-ws connection params, as clients send it: `{ Authorization }`,
 * `{ authorization }`, or nested in `{ headers: { ... } }`.
 */
export function authorizationParam(connectionParams: unknown): unknown {
  if (typeof connectionParams !== "object" || connectionParams === null) return undefined;
  const params = connectionParams as Record<string, unknown>;
  const headers = (params.headers ?? {}) as Record<string, unknown>;
  return (
    params.Authorization ?? params.authorization ?? headers.Authorization ?? headers.authorization
  );
}

/** What one operation's context is made of, beside the gateway's dependencies. */
export interface OperationOrigin {
  /** The caller's key (or the key a session was exchanged for); absent without one. */
  authorization: string | undefined;
  requestId: string;
  /** Aborts the operation when its caller goes away (or at an event's deadline). */
  signal?: AbortSignal | undefined;
  /** The HTTP request, when there is one (its `Cache-Control`). */
  request?: Request | undefined;
  /** Where the operations of one HTTP request share their usage (useBatchUsage). */
  batch?: BatchUsageContext["batchUsage"];
  /** How this operation names its key: the gateway's hasher, or one kept per connection. */
  keyHash?: KeyHasher | undefined;
}

/**
 * A fresh context per operation: its DataLoaders (kept by Pothos in the context cache) and its
 * usage figures never outlive it, so nothing is shared across requests or API keys.
 */
export function createContext(deps: ContextDependencies, origin: OperationOrigin): GatewayContext {
  const { authorization, requestId, signal, request, batch } = origin;
  const keyHash = origin.keyHash ?? deps.keyHash;
  let usage = batch?.usage;
  if (usage === undefined) {
    usage = new UpstreamUsage(deps.maxUpstreamCalls, deps.maxUpstreamBytes);
    if (batch) batch.usage = usage;
  }
  const operation = new CallSignal();
  const unfollowCaller = followCaller(signal, operation);
  const bypassesCache = /\bno-cache\b/i.test(request?.headers.get("cache-control") ?? "");
  const reads: ReadRoute = {};
  const client = deps.upstream;
  const send: SendUpstream = (req) => client.request(req);
  const routed = async <T>(req: UpstreamRequest) => {
    const response = reads.hook ? await reads.hook(req, send) : await send(req);
    if (req.method !== "GET" && response.status < 300) deps.onWrite?.(req);
    return response as UpstreamResponse<T>;
  };
  const upstream: RestTransport = {
    reading: client.reading,
    knowsKey: client.knowsKey,
    // A read outside a live query is the client's call itself: no async step of its own.
    request: <T>(req: UpstreamRequest) =>
      reads.hook === undefined && req.method === "GET" ? client.request<T>(req) : routed<T>(req),
  };
  const onCallShared = deps.onCallShared;
  // Every attempt and every answer of this operation's calls counts against its usage.
  const api = createRestApi(upstream, {
    authorization: authorization ?? "",
    keyHash,
    signal: operation,
    onRequest: usage.recordCall,
    onRateLimit: usage.recordRateLimit,
    requestId,
    mayRetry: usage.mayRetry,
    onAnswerRead: usage.recordAnswer,
    onCallShared: (shared) => {
      usage.recordShared(shared.how);
      onCallShared?.(shared);
    },
    // A client may skip the read cache for one request (docs/upstream-sharing.md).
    cache: bypassesCache ? "bypass" : "use",
    ...(deps.onCallDone ? { onCallDone: deps.onCallDone } : {}),
  });
  return {
    ...initContextCache(),
    authorization,
    api,
    usage,
    operation,
    requestId,
    reads,
    unfollowCaller,
    conversationStatusHub: deps.conversationStatusHub,
    cursorKey: deps.cursorKey,
  };
}

const NOTHING_TO_UNFOLLOW = () => {};

/**
 * The caller's going away aborts the operation, whichever comes first keeping its reason, as
 * AbortSignal.any would: one signal for every call, no composite signal per operation. Made here,
 * not in createContext, so the listener holds the two signals only, not the operation's calls.
 */
function followCaller(signal: AbortSignal | undefined, operation: CallSignal): () => void {
  if (signal === undefined) return NOTHING_TO_UNFOLLOW;
  if (signal.aborted) {
    operation.abort(signal.reason);
    return NOTHING_TO_UNFOLLOW;
  }
  const abort = () => operation.abort(signal.reason);
  signal.addEventListener("abort", abort, { once: true });
  return () => signal.removeEventListener("abort", abort);
}

/** What settle() takes off a context: what only its own operation's calls used. */
const SETTLED = {
  api: undefined,
  usage: undefined,
  operation: undefined,
  reads: undefined,
  unfollowCaller: NOTHING_TO_UNFOLLOW,
};

/**
 * An answered operation's context, let go of its loads, its REST calls, its usage and its
 * listener on the caller's signal: for a context kept past its answer (yoga and envelop keep a
 * live query's first for as long as its stream is open). No call is made with it again.
 */
export function settle(context: GatewayContext): void {
  context.unfollowCaller();
  Object.assign(context, initContextCache(), SETTLED);
}
