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
import { builder, encodeNodeId } from "./builder.ts";
import { SCHEMA_DIRECTIVES } from "./directives.ts";
import { assertCostsDeclared } from "./keyless-fields.ts";
import { resolveNodeIdsAtOnce } from "./sync-ids.ts";

// A field that may reach the upstream without declaring its calls stops the build.
export const schema = assertCostsDeclared(
  resolveNodeIdsAtOnce(builder.toSchema({ directives: SCHEMA_DIRECTIVES }), encodeNodeId),
);
