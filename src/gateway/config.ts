import { z } from "zod";
import { boolVar, ConfigError, intVar, parseEnv } from "../env.ts";
import { FLEET_REDIS_DEFAULTS } from "../fleet/redis.ts";
import { UPSTREAM_DEFAULTS } from "../upstream/client.ts";
import { GATEWAY_DEFAULTS } from "./defaults.ts";

const httpUrl = z
  .string()
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    error: "must be an http(s) URL without /v1, e.g. https://api.example.com",
  })
  // Every operation path already carries /v1: a base ending in it would ask for /v1/v1/...
  .refine((value) => !/\/v1\/?$/.test(new URL(value).pathname), {
    error: "must not end with /v1 (the gateway adds it), e.g. https://api.example.com",
  });

/** The gateway's environment (README: Configuration). */
const gatewayEnv = z.object({
  PORT: intVar(0, 65535).default(4000),
  HOST: z.string().min(1).default("127.0.0.1"),
  UPSTREAM_URL: httpUrl.optional(),
  UPSTREAM_TIMEOUT_MS: intVar(100, 120_000).default(UPSTREAM_DEFAULTS.timeoutMs),
  UPSTREAM_CONNECTIONS: intVar(1, 1024).default(UPSTREAM_DEFAULTS.connections),
  UPSTREAM_CONNECTIONS_PER_KEY: intVar(1, 1024).default(GATEWAY_DEFAULTS.upstreamConnectionsPerKey),
  UPSTREAM_QUEUE_PER_KEY: intVar(0, 100_000).default(GATEWAY_DEFAULTS.upstreamQueuePerKey),
  UPSTREAM_MAX_RETRIES: intVar(0, 5).default(UPSTREAM_DEFAULTS.maxRetries),
  // Where the seed is silent and answers cannot tell (README: Silent spots of the seed).
  UPSTREAM_SEARCH_PARAM: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, { error: "must be a query parameter name, e.g. q" })
    .optional(),
  UPSTREAM_DURATION_UNIT: z
    .enum(["seconds", "milliseconds"], { error: "must be one of seconds, milliseconds" })
    .optional(),
  // Sharing between operations (docs/upstream-sharing.md).
  UPSTREAM_COALESCE: boolVar().default(GATEWAY_DEFAULTS.upstreamCoalesce),
  UPSTREAM_CACHE_TTL_S: intVar(0, 86_400).default(GATEWAY_DEFAULTS.upstreamCacheTtlS),
  MAX_UPSTREAM_CALLS: intVar(1, 100_000).default(GATEWAY_DEFAULTS.maxUpstreamCalls),
  MAX_UPSTREAM_BYTES: intVar(1024, 1024 * 1024 * 1024).default(GATEWAY_DEFAULTS.maxUpstreamBytes),
  MAX_DEPTH: intVar(1, 100).default(GATEWAY_DEFAULTS.maxDepth),
  MAX_ALIASES: intVar(0, 1000).default(GATEWAY_DEFAULTS.maxAliases),
  MAX_TOKENS: intVar(100, 1_000_000).default(GATEWAY_DEFAULTS.maxTokens),
  MAX_REQUEST_BYTES: intVar(1024, 100 * 1024 * 1024).default(GATEWAY_DEFAULTS.maxRequestBytes),
  POLL_INTERVAL_MS: intVar(100, 60_000).default(GATEWAY_DEFAULTS.pollIntervalMs),
  MAX_SUBSCRIPTIONS_PER_KEY: intVar(1, 1_000_000).default(GATEWAY_DEFAULTS.maxSubscriptionsPerKey),
  MAX_SUBSCRIPTIONS_PER_CONNECTION: intVar(1, 1_000_000).default(
    GATEWAY_DEFAULTS.maxSubscriptionsPerConnection,
  ),
  APQ_MAX_BYTES: intVar(0, 1024 * 1024 * 1024).default(GATEWAY_DEFAULTS.apqMaxBytes),
  DOCUMENT_CACHE_MAX_BYTES: intVar(0, 4 * 1024 * 1024 * 1024).default(
    GATEWAY_DEFAULTS.documentCacheMaxBytes,
  ),
  MAX_CACHED_DOCUMENT_BYTES: intVar(0, 16 * 1024 * 1024).default(
    GATEWAY_DEFAULTS.maxCachedDocumentBytes,
  ),
  MAX_SUBSCRIPTIONS_TOTAL: intVar(1, 1_000_000).default(GATEWAY_DEFAULTS.maxSubscriptionsTotal),
  CORS_ORIGINS: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    // Sandboxed frames and local files share the origin "null": allowing it allows them all.
    .refine((origins) => !origins.includes("null"), {
      error: 'must not list the "null" origin (any sandboxed frame or local file has it)',
    })
    .default(["*"]),
  // Several instances behind one balancer must share it, or each refuses the others' cursors.
  CURSOR_SECRET: z
    .string()
    .min(32, { error: "must be at least 32 characters, e.g. from openssl rand -hex 32" })
    .optional(),
  // A fleet (docs/fleet.md): state shared through one Redis; unset, everything stays in process.
  REDIS_URL: z
    .string()
    .refine((value) => URL.canParse(value) && /^rediss?:$/.test(new URL(value).protocol), {
      error: "must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379",
    })
    .optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/, {
      error: "must be 1 to 64 letters, digits or _ . : - (no glob characters), e.g. voicegraph:",
    })
    .default(FLEET_REDIS_DEFAULTS.prefix),
  // Trusted documents: the manifest codegen's client preset writes (persisted-documents.json).
  TRUSTED_DOCUMENTS_FILE: z.string().min(1).optional(),
  // Default: on in session mode, off in passthrough (README: Frontends).
  TRUSTED_DOCUMENTS_ONLY: boolVar().optional(),
  MAX_BATCH_SIZE: intVar(0, 100).default(0),
  // The node:http fast path of a JSON POST of one query or mutation (src/gateway/fast-path.ts).
  GATEWAY_FAST_PATH: z.enum(["on", "off"], { error: "must be on or off" }).default("on"),
  // Session mode (README: Frontends: keep the key on the server).
  AUTH_MODE: z
    .enum(["passthrough", "session"], { error: "must be passthrough or session" })
    .default("passthrough"),
  SESSION_KEYS_FILE: z.string().min(1).optional(),
  SESSION_JWT_SECRET: z.string().min(32, { error: "must be at least 32 characters" }).optional(),
  SESSION_JWKS_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  SESSION_ISSUER: z.string().min(1).optional(),
  SESSION_AUDIENCE: z.string().min(1).optional(),
  SESSION_CLOCK_SKEW_S: intVar(0, 300).default(GATEWAY_DEFAULTS.sessionClockSkewS),
  SESSION_RATE_LIMIT: intVar(1, 1_000_000).default(GATEWAY_DEFAULTS.sessionRateLimitPerMinute),
  // Default: on in passthrough, off in session mode.
  INTROSPECTION: boolVar().optional(),
  OPERATION_DEADLINE_MS: intVar(100, 600_000).default(GATEWAY_DEFAULTS.operationDeadlineMs),
  // Operations (README: Operations).
  SHUTDOWN_GRACE_MS: intVar(0, 600_000).default(GATEWAY_DEFAULTS.shutdownGraceMs),
  HEADERS_TIMEOUT_MS: intVar(100, 600_000).default(GATEWAY_DEFAULTS.headersTimeoutMs),
  REQUEST_TIMEOUT_MS: intVar(100, 3_600_000).default(GATEWAY_DEFAULTS.requestTimeoutMs),
  KEEP_ALIVE_TIMEOUT_MS: intVar(100, 600_000).default(GATEWAY_DEFAULTS.keepAliveTimeoutMs),
  MAX_CONNECTIONS: intVar(1, 1_000_000).default(GATEWAY_DEFAULTS.maxConnections),
  // Default: three quarters of MAX_CONNECTIONS; always one place fewer than it (docs/limits.md).
  MAX_WEBSOCKETS: intVar(0, 1_000_000).optional(),
  WS_INIT_TIMEOUT_MS: intVar(100, 600_000).default(GATEWAY_DEFAULTS.webSocketInitTimeoutMs),
  WS_IDLE_TIMEOUT_MS: intVar(100, 3_600_000).default(GATEWAY_DEFAULTS.webSocketIdleTimeoutMs),
  // /metrics on a port of its own, or behind a token (docs/limits.md).
  METRICS_PORT: intVar(0, 65535).optional(),
  METRICS_TOKEN: z.string().min(16, { error: "must be at least 16 characters" }).optional(),
  GRAPHIQL: z
    .enum(["true", "false"], { error: "must be true or false" })
    .transform((value) => value === "true")
    .optional(),
  LOG_LEVEL: z
    .enum(["debug", "info", "warn", "error"], { error: "must be one of debug, info, warn, error" })
    .default("info"),
  // OpenTelemetry: spans are exported over OTLP/HTTP to `<endpoint>/v1/traces` when set.
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
      error: "must be an http(s) URL of an OTLP/HTTP collector, e.g. http://127.0.0.1:4318",
    })
    .optional(),
});

export type GatewayConfig = Omit<
  z.infer<typeof gatewayEnv>,
  "TRUSTED_DOCUMENTS_ONLY" | "INTROSPECTION"
> & { TRUSTED_DOCUMENTS_ONLY: boolean; INTROSPECTION: boolean };

export function readGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const config = parseEnv(gatewayEnv, env);
  const session = config.AUTH_MODE === "session";
  const trustedOnly = config.TRUSTED_DOCUMENTS_ONLY ?? session;
  if (trustedOnly && config.TRUSTED_DOCUMENTS_FILE === undefined) {
    throw new ConfigError(
      `${session && config.TRUSTED_DOCUMENTS_ONLY === undefined ? "AUTH_MODE=session" : "TRUSTED_DOCUMENTS_ONLY=true"} needs TRUSTED_DOCUMENTS_FILE (the persisted-documents manifest; TRUSTED_DOCUMENTS_ONLY=false turns that off)`,
    );
  }
  if (config.REDIS_URL !== undefined && config.CURSOR_SECRET === undefined) {
    throw new ConfigError(
      "REDIS_URL needs CURSOR_SECRET: every instance of a fleet must share it, or each refuses the others' cursors",
    );
  }
  if (session && !config.SESSION_JWT_SECRET && !config.SESSION_JWKS_URL) {
    throw new ConfigError("AUTH_MODE=session needs SESSION_JWT_SECRET or SESSION_JWKS_URL");
  }
  return {
    ...config,
    TRUSTED_DOCUMENTS_ONLY: trustedOnly,
    INTROSPECTION: config.INTROSPECTION ?? !session,
  };
}
