import { initContextCache } from "@pothos/core";
import type { CursorKey } from "../connections/cursor.ts";
import { gatewayError } from "../errors.ts";
import type { SchemaContext } from "../schema/context.ts";
import type { UpstreamClient } from "../upstream/client.ts";
import type { RateLimit } from "../upstream/rate-limit.ts";
import { createRestApi } from "../upstream/rest-api.ts";
import type { ConversationStatusHub } from "./conversation-status-hub.ts";
import type { Session } from "./session/verify-session.ts";

/** What one GraphQL operation did upstream: reported in `extensions` and response headers. */
export class UpstreamUsage {
  calls = 0;
  /** The most restrictive rate-limit answer seen (lowest `remaining`). */
  rateLimit: RateLimit | undefined;
  /**
   * The runtime budget: past this many real calls, no call starts and the fields left fail with
   * COST_LIMIT_EXCEEDED. Undefined for subscriptions, which the poll interval bounds instead.
   */
  limit: number | undefined;

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
  /** Aborts every upstream call of the operation (its deadline: use-operation-deadline.ts). */
  readonly operation: AbortController;
  /** Sent upstream as `X-Request-Id`, answered in the response header and error extensions. */
  readonly requestId: string;
  /** In session mode, who the token says is calling. */
  readonly session?: Session;
}

export interface ContextDependencies {
  upstream: UpstreamClient;
  conversationStatusHub: ConversationStatusHub;
  cursorKey: CursorKey;
  /** The runtime budget of real upstream calls per operation (MAX_UPSTREAM_CALLS). */
  maxUpstreamCalls: number;
  /** The bytes of upstream answers one operation may read (MAX_UPSTREAM_BYTES). */
  maxUpstreamBytes?: number;
  /** Told of every upstream call (metrics). */
  onCallDone?: (call: { route: string; status: string; seconds: number }) => void;
}

/** Reads the header from a Fetch API request, or from graphql-ws connection params. */
export function authorizationFrom(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/**
 * A fresh context per operation: its DataLoaders (kept by Pothos in the context cache) and its
 * usage figures never outlive it, so nothing is shared across requests or API keys.
 */
export function createContext(
  deps: ContextDependencies,
  authorization: string | undefined,
  signal: AbortSignal | undefined,
  requestId: string,
  /** A batch's operations share one usage, so one budget (MAX_BATCH_SIZE). */
  shared?: UpstreamUsage,
): GatewayContext {
  const usage = shared ?? new UpstreamUsage(deps.maxUpstreamCalls, deps.maxUpstreamBytes);
  const operation = new AbortController();
  const api = createRestApi(deps.upstream, {
    authorization: authorization ?? "",
    signal: signal ? AbortSignal.any([signal, operation.signal]) : operation.signal,
    onRequest: usage.recordCall,
    mayRetry: usage.mayRetry,
    onAnswerRead: usage.recordAnswer,
    onRateLimit: usage.recordRateLimit,
    requestId,
    ...(deps.onCallDone ? { onCallDone: deps.onCallDone } : {}),
  });
  return {
    ...initContextCache(),
    authorization,
    api,
    usage,
    operation,
    requestId,
    conversationStatusHub: deps.conversationStatusHub,
    cursorKey: deps.cursorKey,
  };
}
