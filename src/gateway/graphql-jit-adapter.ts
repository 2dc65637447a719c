import { createRequire } from "node:module";
import type { CoercedVariableValues } from "graphql-jit/dist/variables";

/**
 * The one file that reaches into graphql-jit (pinned in package.json to the version below):
 * its compiled coercion of variables, which the package root does not export. Compiled queries
 * use the root's `compileQuery`. test/gateway/graphql-jit-adapter.test.ts fails, naming this
 * adapter, when an upgrade moves what it relies on.
 */
export const GRAPHQL_JIT_ADAPTER = {
  name: "graphql-jit-adapter",
  writtenAgainst: "0.8.9",
} as const;

/** Where graphql-jit keeps its variable coercion: its CommonJS build's own file. */
export const GRAPHQL_JIT_VARIABLES_MODULE = "graphql-jit/dist/variables.js";

export type { CoercedVariableValues };

// graphql-jit's ES module of this file imports "./generate" without an extension, which Node's
// ESM loader refuses; its CommonJS build loads (the same graphql, which is CommonJS either way).
const jitVariables = createRequire(import.meta.url)(
  GRAPHQL_JIT_VARIABLES_MODULE,
) as typeof import("graphql-jit/dist/variables");

export const { compileVariableParsing, failToParseVariables } = jitVariables;
