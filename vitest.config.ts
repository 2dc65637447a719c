import { defineConfig } from "vitest/config";

// The gateway's end-to-end tests run once per sandbox dialect (src/sandbox/dialects.ts): a test
// that passes only because of one dialect's reading of the seed is a defect.
// They also run once with the node:http fast path and compiled execution off
// (docs/configuration.md): every answer must be the same through yoga and graphql-js alone as through the
// fast path and graphql-jit, which the other projects take from a query's first run.
const gatewayProject = (dialect: string, fastPath: "on" | "off" = "on") => ({
  extends: true as const,
  test: {
    name: fastPath === "on" ? `gateway:${dialect}` : "gateway:yoga-only",
    include: ["test/gateway/**/*.test.ts", "test/clients/**/*.test.ts"],
    env: {
      SANDBOX_DIALECT: dialect,
      GATEWAY_FAST_PATH: fastPath,
      COMPILED_EXECUTION_AFTER: fastPath === "on" ? "1" : "0",
    },
  },
});

/** Files that are about one form of store only: the other form's pass leaves them out. */
const ONE_SERVER_ONLY = [
  // A model or a differential over one server's commands; the store's start-up check.
  "test/fleet/sharing-model.property.test.ts",
  "test/fleet/poller-store-differential.test.ts",
  "test/fleet/fleet-store-check.test.ts",
];
const CLUSTER_ONLY = ["test/fleet/fleet-cluster.test.ts", "test/fleet/fleet-failover.test.ts"];

const fleetProject = (store: "server" | "cluster") => ({
  extends: true as const,
  test: {
    name: store === "server" ? "fleet" : "fleet-cluster",
    include: ["test/fleet/**/*.test.ts"],
    exclude: store === "server" ? CLUSTER_ONLY : ONE_SERVER_ONLY,
    env: { FLEET_STORE: store },
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // The suite kills servers and Redis: one file at a time keeps its timings honest.
    fileParallelism: false,
    sequence: { groupOrder: store === "server" ? 2 : 3 },
  },
});

export default defineConfig({
  resolve: {
    // Node loads graphql's CommonJS build for every package; Vite would pick its ESM build for
    // our own files, and graphql-js refuses to see two copies of itself in one process.
    alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }],
  },
  test: {
    // Bounds against a hang, not speeds: a test two suites share two cores with may take long,
    // and each wait inside one may take up to WAIT_MS (test/support/wait.ts).
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // Test files share their worker's modules: loading yoga, Pothos and the schema afresh for
    // every file was most of the suite's time. Nothing in src/ keeps state between gateways
    // (a test creates its own), so a file cannot see what another left behind.
    isolate: false,
    // Most of a test's time is spent waiting on loopback servers and child processes, not on a
    // core: two files at once keep two cores busy (vitest's default is one on two cores).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: [
            "test/gateway/**",
            "test/clients/**",
            "test/processes/**",
            "test/fleet/**",
            "test/browser/**",
            "**/node_modules/**",
          ],
        },
      },
      gatewayProject("standard"),
      gatewayProject("alternate"),
      gatewayProject("standard", "off"),
      // The real entry points as child processes, each given only the variables its test names:
      // nothing of a gateway project's environment reaches them, so one run proves them.
      {
        extends: true,
        test: { name: "processes", include: ["test/processes/**/*.test.ts"] },
      },
      // GraphiQL in Debian's Chromium: `npm run test:browser` only, so `npm test` needs Node alone.
      { extends: true, test: { name: "browser", include: ["test/browser/**/*.test.ts"] } },
      // Figures of the collector and of memory, which a busy machine moves: `npm run
      // bench:checks` only, never `npm test` (docs/benchmarks.md).
      {
        extends: true,
        test: {
          name: "bench-checks",
          include: ["bench/checks/**/*.check.ts"],
          // Each check measures its own process: nothing else may run beside it.
          fileParallelism: false,
          // Its own group: vitest runs projects of unlike parallelism in separate groups.
          sequence: { groupOrder: 1 },
        },
      },
      // Several gateways over one real store, `npm run test:fleet` only (docs/fleet.md): every
      // fleet promise on one server, then on a three-master Redis Cluster the suite starts.
      fleetProject("server"),
      fleetProject("cluster"),
    ],
  },
});
