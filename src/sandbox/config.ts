import { z } from "zod";
import { intVar, parseEnv, rateVar } from "../env.ts";
import { DIALECT_NAMES } from "./dialects.ts";
import type { SandboxOptions } from "./server.ts";

const DAY_S = 86_400;

/** The SANDBOX_* variables (README: Configuration); a bad one is a ConfigError naming it. */
const sandboxEnv = z.object({
  SANDBOX_PORT: intVar(0, 65_535).default(4010),
  SANDBOX_HOST: z.string().default("127.0.0.1"),
  // Unset: the dialect's defaults (standard: 100 000 per 60 s).
  SANDBOX_RATE_LIMIT: intVar(1, 1_000_000_000).optional(),
  SANDBOX_RATE_WINDOW_S: intVar(1, DAY_S).optional(),
  SANDBOX_LATENCY_MS: intVar(0, 60_000).default(0),
  SANDBOX_ERROR_RATE: rateVar().default(0),
  SANDBOX_HANG_RATE: rateVar().default(0),
  SANDBOX_CALL_DURATION_S: intVar(1, DAY_S).default(90),
  SANDBOX_CALL_INTERVAL_S: intVar(1, DAY_S).default(20),
  SANDBOX_CURSOR_TTL_S: intVar(1, 7 * DAY_S).default(15 * 60),
  SANDBOX_DIALECT: z
    .enum(DIALECT_NAMES, { error: `must be one of ${DIALECT_NAMES.join(", ")}` })
    .default("standard"),
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
      callDurationMs: vars.SANDBOX_CALL_DURATION_S * 1000,
      callIntervalMs: vars.SANDBOX_CALL_INTERVAL_S * 1000,
      cursorTtlMs: vars.SANDBOX_CURSOR_TTL_S * 1000,
      dialect: vars.SANDBOX_DIALECT,
    },
  };
}
