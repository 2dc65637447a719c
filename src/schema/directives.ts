import { GraphQLDeferDirective, GraphQLStreamDirective } from "@graphql-tools/utils";
import { GraphQLLiveDirective } from "@n1ru4l/graphql-live-query";
import { specifiedDirectives } from "graphql";

// `@defer` and `@stream` are part of the schema, so codegen and clients validate documents that
// use them against the committed SDL; the gateway serves them incrementally.
const INCREMENTAL_DIRECTIVES = [
  ...specifiedDirectives,
  GraphQLDeferDirective,
  GraphQLStreamDirective,
];

export const SCHEMA_DIRECTIVES = [...INCREMENTAL_DIRECTIVES, GraphQLLiveDirective];

/**
 * A router plans and serves a supergraph's operations itself and never sends `@live` on to a
 * subgraph; declared by one subgraph only, composers leave it out of the supergraph with a hint.
 */
export const SUBGRAPH_DIRECTIVES = INCREMENTAL_DIRECTIVES;
