import { renderGraphiQL } from "@graphql-yoga/render-graphiql";
import {
  createYoga,
  type GraphiQLOptions,
  type LogLevel,
  useExecutionCancellation,
  useReadinessCheck,
  type YogaLogger,
  type YogaServerInstance,
} from "graphql-yoga";
import { createCursorKey } from "../connections/cursor.ts";
import { schema } from "../schema/index.ts";
import type { UpstreamClient } from "../upstream/client.ts";
import { authorizationFrom, createContext, type GatewayContext } from "./context.ts";
import { ConversationStatusHub } from "./conversation-status-hub.ts";
import { createGatewayLogger } from "./logger.ts";
import { maskError } from "./mask-error.ts";
import { useHttpStatusInErrors } from "./use-http-status-in-errors.ts";
import { useKeyBound } from "./use-key-bound.ts";
import { useOperationLimits } from "./use-operation-limits.ts";
import { useRequestSizeLimit } from "./use-request-size-limit.ts";
import { useUpstreamBudget } from "./use-upstream-budget.ts";
import { useUpstreamReport } from "./use-upstream-report.ts";
import { useWellFormedInput } from "./use-well-formed-input.ts";

export interface GatewayOptions {
  upstream: UpstreamClient;
  /** Most upstream calls one operation may be estimated to make; default 200. */
  maxUpstreamCalls?: number;
  /** Deepest selection allowed; default 12. */
  maxDepth?: number;
  /** Most aliases in one operation; default 30. */
  maxAliases?: number;
  /** Most tokens in one GraphQL document; default 5000. */
  maxTokens?: number;
  /** Largest request body; default 1 MiB. */
  maxRequestBytes?: number;
  /** Browser origins allowed by CORS; default any ("*"). */
  corsOrigins?: string[];
  /** Poll interval of `Subscription.conversationStatus`; default 1000 ms. */
  pollIntervalMs?: number;
  /** GraphiQL's opening state (e.g. the demo key's header); false turns GraphiQL off. */
  graphiql?: GraphiQLOptions | false;
  /** Secret of the connection cursors' HMAC; random per gateway when absent (CURSOR_SECRET). */
  cursorSecret?: string;
  /** A level, false for silence, or a logger of one's own (tests capture lines so); default "info". */
  logging?: LogLevel | YogaLogger | false;
}

export type Gateway = YogaServerInstance<Record<string, unknown>, GatewayContext> & {
  conversationStatusHub: ConversationStatusHub;
};

/** The yoga app, not listening: main.ts listens on it, tests call `fetch` or listen on port 0. */
export function createGateway(options: GatewayOptions): Gateway {
  const conversationStatusHub = new ConversationStatusHub({
    upstream: options.upstream,
    intervalMs: options.pollIntervalMs ?? 1000,
  });
  const dependencies = {
    upstream: options.upstream,
    conversationStatusHub,
    cursorKey: createCursorKey(options.cursorSecret),
  };

  const yoga = createYoga<Record<string, unknown>, GatewayContext>({
    schema,
    graphqlEndpoint: "/graphql",
    healthCheckEndpoint: "/healthz",
    landingPage: false,
    graphiql: options.graphiql === false ? false : { title: "voicegraph", ...options.graphiql },
    // GraphiQL's assets come from the package, not a CDN: it works on a closed network.
    renderGraphiQL,
    logging:
      typeof options.logging === "object"
        ? options.logging
        : createGatewayLogger(options.logging === false ? "silent" : (options.logging ?? "info")),
    maskedErrors: { maskError },
    // Over graphql-ws there is no Fetch request: the key comes in the connection params.
    context: ({ request, connectionParams }) => {
      const authorization =
        request?.headers.get("authorization") ?? authorizationParam(connectionParams);
      return createContext(dependencies, authorizationFrom(authorization), request?.signal);
    },
    cors: {
      origin: options.corsOrigins ?? ["*"],
      credentials: true,
      // Browsers may read the rate-limit figures the gateway forwards.
      exposedHeaders: [
        "X-RateLimit-Limit",
        "X-RateLimit-Remaining",
        "X-RateLimit-Reset",
        "Retry-After",
      ],
    },
    // The schema takes no files: multipart requests are not accepted.
    multipart: false,
    plugins: [
      useRequestSizeLimit({ maxBytes: options.maxRequestBytes ?? 1024 * 1024 }),
      useReadinessCheck({
        endpoint: "/readyz",
        check: () => options.upstream.isReachable(),
      }),
      useExecutionCancellation(),
      useOperationLimits({
        maxDepth: options.maxDepth ?? 12,
        maxAliases: options.maxAliases ?? 30,
        maxTokens: options.maxTokens ?? 5000,
      }),
      useWellFormedInput(),
      useKeyBound(),
      useUpstreamBudget({ maxUpstreamCalls: options.maxUpstreamCalls ?? 200 }),
      useUpstreamReport(),
      useHttpStatusInErrors(),
    ],
  });
  return Object.assign(yoga, { conversationStatusHub });
}

/**
 * The key in graphql-ws connection params, as clients send it: `{ Authorization }`,
 * `{ authorization }`, or nested in `{ headers: { ... } }`.
 */
function authorizationParam(connectionParams: unknown): unknown {
  if (typeof connectionParams !== "object" || connectionParams === null) return undefined;
  const params = connectionParams as Record<string, unknown>;
  const headers = (params.headers ?? {}) as Record<string, unknown>;
  return (
    params.Authorization ?? params.authorization ?? headers.Authorization ?? headers.authorization
  );
}
