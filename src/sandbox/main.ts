/**
 * `npm run sandbox`: the embedded REST API on its own, configured from SANDBOX_* variables.
 * A bad variable, or a port that cannot be listened on, prints one line naming it and exits 1.
 */
import { ConfigError } from "../env.ts";
import { portProblem } from "../listen.ts";
import { readSandboxConfig, type SandboxConfig } from "./config.ts";
import { DEMO_KEYS } from "./seed-data.ts";
import { startSandbox } from "./server.ts";

let config: SandboxConfig;
try {
  config = readSandboxConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

const sandbox = await startSandbox({
  port: config.port,
  host: config.host,
  ...config.options,
}).catch((error: unknown) => {
  const busyPort = portProblem(error, "sandbox", "SANDBOX_PORT");
  if (busyPort === undefined) throw error;
  process.stderr.write(`${busyPort}\n`);
  process.exit(1);
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
