import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Node loads graphql's CommonJS build for every package; Vite would pick its ESM build for
    // our own files, and graphql-js refuses to see two copies of itself in one process.
    alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }],
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 15_000,
    hookTimeout: 15_000,
  },
});
