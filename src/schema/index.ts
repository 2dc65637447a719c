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
import { resolveNodeIdsAtOnce } from "./sync-ids.ts";

export const schema = resolveNodeIdsAtOnce(
  builder.toSchema({ directives: SCHEMA_DIRECTIVES }),
  encodeNodeId,
);
