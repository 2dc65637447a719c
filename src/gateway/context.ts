import { initContextCache } from "@pothos/core";
import type { CursorKey } from "../connections/cursor.ts";
import type { SchemaContext } from "../schema/context.ts";
import type { UpstreamClient } from "../upstream/client.ts";
import type { RateLimit } from "../upstream/dto.ts";
import { createRestApi } from "../upstream/rest-api.ts";
import type { ConversationStatusHub } from "./conversation-status-hub.ts";

/** What one GraphQL operation did upstream: reported in `extensions` and response headers. */
export class UpstreamUsage {
  calls = 0;
  /** The most restrictive rate-limit answer seen (lowest `remaining`). */
  rateLimit: RateLimit | undefined;

  recordCall = (): void => {
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
  /** Filled by the cost check before execution. */
  estimatedUpstreamCalls?: number;
}

export interface ContextDependencies {
  upstream: UpstreamClient;
  conversationStatusHub: ConversationStatusHub;
  cursorKey: CursorKey;
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
): GatewayContext {
  const usage = new UpstreamUsage();
  const api = createRestApi(deps.upstream, {
    authorization: authorization ?? "",
    ...(signal ? { signal } : {}),
    onRequest: usage.recordCall,
    onRateLimit: usage.recordRateLimit,
  });
  return {
    ...initContextCache(),
    authorization,
    api,
    usage,
    conversationStatusHub: deps.conversationStatusHub,
    cursorKey: deps.cursorKey,
  };
}
