import "./organization.ts";
import "./agent.ts";
import "./conversation.ts";
import "./contact.ts";
import "./campaign.ts";
import "./document.ts";
import "./tool-catalog.ts";
import "./phone-number.ts";
import "./property-definition.ts";
import "./conversation-status.ts";
import "./node.ts";
import { GraphQLDeferDirective, GraphQLStreamDirective } from "@graphql-tools/utils";
import { GraphQLLiveDirective } from "@n1ru4l/graphql-live-query";
import { specifiedDirectives } from "graphql";
import { builder, encodeNodeId } from "./builder.ts";
import { resolveNodeIdsAtOnce } from "./sync-ids.ts";

// `@defer` and `@stream` are part of the schema, so codegen and clients validate documents that
// use them against the committed SDL; the gateway serves them incrementally.
export const schema = resolveNodeIdsAtOnce(
  builder.toSchema({
    directives: [
      ...specifiedDirectives,
      GraphQLDeferDirective,
      GraphQLStreamDirective,
      GraphQLLiveDirective,
    ],
  }),
  encodeNodeId,
);
