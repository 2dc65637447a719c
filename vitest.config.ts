import { defineConfig } from "vitest/config";

const shared = {
  resolve: {
    // Node loads graphql's CommonJS build for every package; Vite would pick its ESM build for
    // our own files, and graphql-js refuses to see two copies of itself in one process.
    alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }],
  },
};

const timeouts = { testTimeout: 15_000, hookTimeout: 15_000 };

/**
 * The gateway's end-to-end tests run once per sandbox dialect (src/sandbox/dialects.ts): a test
 * that passes only because of one reading of the seed's silent spots fails in the other.
 */
export default defineConfig({
  ...shared,
  test: {
    ...timeouts,
    projects: [
      {
        ...shared,
        test: {
          ...timeouts,
          name: "units",
          include: ["test/**/*.test.ts"],
          exclude: ["test/gateway/**"],
        },
      },
      ...(["standard", "alternate"] as const).map((dialect) => ({
        ...shared,
        test: {
          ...timeouts,
          name: `gateway:${dialect}`,
          include: ["test/gateway/**/*.test.ts"],
          env: { SANDBOX_DIALECT: dialect },
        },
      })),
    ],
  },
});
