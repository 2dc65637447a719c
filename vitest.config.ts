import { defineConfig } from "vitest/config";

// The gateway's end-to-end tests run once per sandbox dialect (src/sandbox/dialects.ts): a test
// that passes only because of one dialect's reading of the seed is a defect (issue 6).
const gatewayProject = (dialect: string) => ({
  extends: true as const,
  test: {
    name: `gateway:${dialect}`,
    include: ["test/gateway/**/*.test.ts", "test/clients/**/*.test.ts"],
    env: { SANDBOX_DIALECT: dialect },
  },
});

export default defineConfig({
  resolve: {
    // Node loads graphql's CommonJS build for every package; Vite would pick its ESM build for
    // our own files, and graphql-js refuses to see two copies of itself in one process.
    alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }],
  },
  test: {
    testTimeout: 15_000,
    hookTimeout: 15_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: ["test/gateway/**", "test/clients/**", "**/node_modules/**"],
        },
      },
      gatewayProject("standard"),
      gatewayProject("alternate"),
    ],
  },
});
