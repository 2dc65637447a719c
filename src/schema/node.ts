import { badUserInput } from "../errors.ts";
import { ID_PREFIX } from "../upstream/ids.ts";
import { Agent } from "./agent.ts";
import { builder } from "./builder.ts";
import { Campaign } from "./campaign.ts";
import { Contact } from "./contact.ts";
import type { SchemaContext } from "./context.ts";
import { Conversation } from "./conversation.ts";
import { CONVERSATION_BY_ID_CALLS } from "./conversation-by-id.ts";
import { Document } from "./document.ts";
import { assertIdLength, idRule, quoteId, typenameForId } from "./ids.ts";

/** Loads any node by its ID's prefix, through the same per-request loaders as every field. */
export function loadNode(id: string, context: SchemaContext): Promise<unknown> | unknown {
  switch (typenameForId(assertIdLength(id))) {
    case "Agent":
      return Agent.getDataloader(context).load(id);
    case "Contact":
      return Contact.getDataloader(context).load(id);
    case "Conversation":
      return Conversation.getDataloader(context).load(id);
    case "Campaign":
      return Campaign.getDataloader(context).load(id);
    case "Document":
      return Document.getDataloader(context).load(id);
    case "PropertyDefinition":
      return { id };
    default:
      throw badUserInput(
        `${quoteId(id)} is not a node ID: it must start with one of ${Object.values(ID_PREFIX).join(", ")}.`,
        { argument: "id" },
      );
  }
}

builder.queryFields((t) => ({
  node: t.field({
    type: builder.nodeInterfaceRef(),
    nullable: true,
    description:
      "Any object by its ID; the prefix (agt_, cnt_, cnv_, cmp_, prp_, doc_) picks the type.",
    args: { id: t.arg.id({ required: true, extensions: idRule("node") }) },
    // A conversation is the costliest node (conversation-by-id.ts); every other type one call.
    extensions: CONVERSATION_BY_ID_CALLS,
    resolve: (_root, { id }, context) => loadNode(id, context) as never,
  }),
  nodes: t.field({
    type: [builder.nodeInterfaceRef()],
    nullable: { list: false, items: true },
    description:
      "Objects by ID, in order; an ID not found yields null and its own error. An ID of no node's prefix refuses the whole operation (BAD_USER_INPUT, HTTP 400).",
    args: { ids: t.arg.idList({ required: true, extensions: idRule("node") }) },
    extensions: {
      upstreamCalls: { perItemOf: "ids", each: CONVERSATION_BY_ID_CALLS.upstreamCalls },
    },
    resolve: (_root, { ids }, context) => ids.map(async (id) => loadNode(id, context)) as never,
  }),
}));
