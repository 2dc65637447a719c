/**
 * `npm run sandbox`: the embedded REST API on its own, configured from SANDBOX_* variables.
 * A bad variable prints one line naming it and exits 1.
 */
import { z } from "zod";
import { ConfigError, intVar, parseEnv, rateVar } from "../env.ts";
import { DEMO_KEYS } from "./seed-data.ts";
import { startSandbox } from "./server.ts";

const DAY_S = 86_400;

const sandboxEnv = z.object({
  SANDBOX_PORT: intVar(0, 65_535).default(4010),
  SANDBOX_HOST: z.string().default("127.0.0.1"),
  SANDBOX_RATE_LIMIT: intVar(1, 1_000_000_000).default(100_000),
  SANDBOX_RATE_WINDOW_S: intVar(1, DAY_S).default(60),
  SANDBOX_LATENCY_MS: intVar(0, 60_000).default(0),
  SANDBOX_ERROR_RATE: rateVar().default(0),
  SANDBOX_HANG_RATE: rateVar().default(0),
  SANDBOX_CALL_DURATION_S: intVar(1, DAY_S).default(90),
  SANDBOX_CALL_INTERVAL_S: intVar(1, DAY_S).default(20),
  SANDBOX_CURSOR_TTL_S: intVar(1, 7 * DAY_S).default(15 * 60),
});

let env: z.infer<typeof sandboxEnv>;
try {
  env = parseEnv(sandboxEnv);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

const sandbox = await startSandbox({
  port: env.SANDBOX_PORT,
  host: env.SANDBOX_HOST,
  rateLimit: env.SANDBOX_RATE_LIMIT,
  rateWindowSeconds: env.SANDBOX_RATE_WINDOW_S,
  latencyMs: env.SANDBOX_LATENCY_MS,
  errorRate: env.SANDBOX_ERROR_RATE,
  hangRate: env.SANDBOX_HANG_RATE,
  callDurationMs: env.SANDBOX_CALL_DURATION_S * 1000,
  callIntervalMs: env.SANDBOX_CALL_INTERVAL_S * 1000,
  cursorTtlMs: env.SANDBOX_CURSOR_TTL_S * 1000,
});

process.stdout.write(
  [
    `Sandbox REST API listening on ${sandbox.url}/v1`,
    `OpenAPI document: ${sandbox.url}/v1/openapi.json`,
    "Demo API keys (Authorization: Bearer <key>):",
    `  ${DEMO_KEYS.acme}  Acme Health, full access`,
    `  ${DEMO_KEYS.globex}  Globex Corporation, full access`,
    `  ${DEMO_KEYS.acmeReadonly}  Acme Health, read-only`,
    "",
  ].join("\n"),
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void sandbox.close().then(() => process.exit(0));
  });
}
