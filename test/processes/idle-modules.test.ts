import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.ts";
import { scriptPerTest } from "../support/scripts.ts";

const start = scriptPerTest("src/main.ts", {
  NODE_OPTIONS: "--import=./test/support/record-modules.ts",
});

/** The packages and our own modules that only a setting turns on: each is memory held for nothing otherwise. */
const OFF_BY_DEFAULT = [
  "/node_modules/ioredis/", // REDIS_URL (a fleet)
  "/node_modules/rate-limiter-flexible/", // AUTH_MODE=session, and a fleet's session limit
  "/node_modules/jose/", // AUTH_MODE=session
  "/node_modules/@opentelemetry/sdk-trace-base/", // OTEL_EXPORTER_OTLP_ENDPOINT
  "/node_modules/@opentelemetry/sdk-trace-node/",
  "/node_modules/@opentelemetry/exporter-trace-otlp-http/",
  "/node_modules/@graphql-yoga/render-graphiql/", // GraphiQL, off away from the embedded sandbox
  "/node_modules/@apollo/subgraph/", // FEDERATION=on
  "/node_modules/@pothos/plugin-federation/",
  "/src/schema/subgraph.ts",
  "/src/fleet/redis.ts",
  "/src/fleet/redis-start.ts", // the store's start-up check, REDIS_URL or REDIS_CLUSTER_NODES
  "/src/gateway/session/verify-session.ts",
  "/src/sandbox/", // the embedded sandbox, only without UPSTREAM_URL
];

async function loadedModules(env: Record<string, string>): Promise<string[]> {
  const gateway = start({ PORT: "0", LOG_LEVEL: "error", ...env });
  await gateway.stdoutWith("upstream:");
  gateway.child.kill("SIGUSR2");
  const line = /loaded modules: (.*)\n/.exec(await gateway.stdoutWith(/loaded modules: .*\n/));
  expect(line, gateway.output().stderr).not.toBeNull();
  return JSON.parse(line?.[1] as string) as string[];
}

describe("an idle gateway with the default settings", () => {
  it("has not loaded the modules of the parts that are off by default", async () => {
    const upstream = await startSandbox({ port: 0 });
    try {
      const modules = await loadedModules({ UPSTREAM_URL: upstream.url });
      // The record sees both module systems: yoga (ESM) and prom-client (CommonJS) are there.
      expect(modules.some((url) => url.includes("/node_modules/graphql-yoga/"))).toBe(true);
      expect(modules.some((url) => url.includes("/node_modules/prom-client/"))).toBe(true);
      const eager = OFF_BY_DEFAULT.filter((part) => modules.some((url) => url.includes(part)));
      expect(eager).toEqual([]);
      // undici's Pool alone: its index brings every dispatcher and the whole fetch with it.
      expect(
        modules.some((url) => url.endsWith("/node_modules/undici/lib/dispatcher/pool.js")),
      ).toBe(true);
      expect(modules.filter((url) => url.endsWith("/node_modules/undici/index.js"))).toEqual([]);
    } finally {
      await upstream.close();
    }
  });

  it("loads them when their settings turn them on (the record sees modules loaded later)", async () => {
    const upstream = await startSandbox({ port: 0 });
    try {
      const modules = await loadedModules({
        UPSTREAM_URL: upstream.url,
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9",
      });
      expect(
        modules.some((url) => url.includes("/node_modules/@opentelemetry/sdk-trace-node/")),
      ).toBe(true);
    } finally {
      await upstream.close();
    }
  });

  it("loads federation's modules with FEDERATION=on", async () => {
    const upstream = await startSandbox({ port: 0 });
    try {
      const modules = await loadedModules({ UPSTREAM_URL: upstream.url, FEDERATION: "on" });
      expect(modules.some((url) => url.includes("/node_modules/@apollo/subgraph/"))).toBe(true);
      expect(modules.some((url) => url.endsWith("/src/schema/subgraph.ts"))).toBe(true);
    } finally {
      await upstream.close();
    }
  });
});
