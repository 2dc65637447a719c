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
import { builder } from "./builder.ts";

export const schema = builder.toSchema();
