import { z } from "zod";
import { intVar, parseEnv, rateVar } from "../env.ts";
import { DIALECT_NAMES } from "./dialects.ts";
import type { SandboxOptions } from "./server.ts";

const DAY_S = 86_400;

/** The SANDBOX_* variables (docs/configuration.md); a bad one is a ConfigError naming it. */
export const sandboxEnv = z.object({
  SANDBOX_PORT: intVar(0, 65_535)
    .default(4010)
    .describe("Standalone sandbox's listen port (`npm run sandbox`; embedded: a free port)."),
  SANDBOX_HOST: z.string().default("127.0.0.1").describe("Standalone sandbox's listen host."),
  // Unset: the sandbox's defaults (options.ts), or the dialect's (standard: 100 000 per 60 s).
  SANDBOX_RATE_LIMIT: intVar(1, 1_000_000_000)
    .optional()
    .describe(
      "Requests per organization per window (fixed window); default the dialect's (standard: 100000).",
    ),
  SANDBOX_RATE_WINDOW_S: intVar(1, DAY_S)
    .optional()
    .describe("The rate-limit window; default the dialect's (standard: 60)."),
  SANDBOX_LATENCY_MS: intVar(0, 60_000)
    .optional()
    .describe("Latency added to every request; default 0."),
  SANDBOX_ERROR_RATE: rateVar()
    .optional()
    .describe("Fraction of requests answered 500; default 0."),
  SANDBOX_HANG_RATE: rateVar()
    .optional()
    .describe("Fraction of requests never answered; default 0."),
  SANDBOX_CALL_DURATION_S: intVar(1, DAY_S)
    .optional()
    .describe("How long a live call lasts; default 90."),
  SANDBOX_CALL_INTERVAL_S: intVar(1, DAY_S)
    .optional()
    .describe("How often a new live call starts; default 20."),
  SANDBOX_CURSOR_TTL_S: intVar(1, 7 * DAY_S)
    .optional()
    .describe("Age at which a list cursor is stale; default 900."),
  SANDBOX_DIALECT: z
    .enum(DIALECT_NAMES, { error: `must be one of ${DIALECT_NAMES.join(", ")}` })
    .optional()
    .describe(
      "`standard` or `alternate`: the sandbox's reading of the seed's silent spots (docs/upstream.md).",
    ),
});

export interface SandboxConfig {
  port: number;
  host: string;
  options: SandboxOptions;
}

/** Read by `npm run sandbox`, and by `npm start` for the sandbox it embeds. */
export function readSandboxConfig(env: NodeJS.ProcessEnv = process.env): SandboxConfig {
  const vars = parseEnv(sandboxEnv, env);
  return {
    port: vars.SANDBOX_PORT,
    host: vars.SANDBOX_HOST,
    options: {
      rateLimit: vars.SANDBOX_RATE_LIMIT,
      rateWindowSeconds: vars.SANDBOX_RATE_WINDOW_S,
      latencyMs: vars.SANDBOX_LATENCY_MS,
      errorRate: vars.SANDBOX_ERROR_RATE,
      hangRate: vars.SANDBOX_HANG_RATE,
      callDurationMs: milliseconds(vars.SANDBOX_CALL_DURATION_S),
      callIntervalMs: milliseconds(vars.SANDBOX_CALL_INTERVAL_S),
      cursorTtlMs: milliseconds(vars.SANDBOX_CURSOR_TTL_S),
      dialect: vars.SANDBOX_DIALECT,
    },
  };
}

function milliseconds(seconds: number | undefined): number | undefined {
  return seconds === undefined ? undefined : seconds * 1000;
}
