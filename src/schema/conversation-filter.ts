import { badUserInput } from "../errors.ts";
import type { ListConversationsQuery } from "../upstream/dto.ts";
import { builder } from "./builder.ts";
import {
  ConversationChannel,
  ConversationDirection,
  ConversationStatus,
} from "./conversation-enums.ts";
import { assertId, idRule } from "./ids.ts";

export const ConversationFilter = builder.inputType("ConversationFilter", {
  description:
    "Narrows a conversation list: every field given applies, and the upstream does the filtering.",
  fields: (t) => ({
    agentId: t.id({
      description: "Only the conversations of this agent (`agt_` prefix).",
      extensions: idRule("agent"),
    }),
    contactId: t.id({
      description: "Only the conversations with this contact (`cnt_` prefix).",
      extensions: idRule("contact"),
    }),
    status: t.field({
      type: ConversationStatus,
      description: "Only conversations in this status.",
    }),
    direction: t.field({
      type: ConversationDirection,
      description: "Only conversations in this direction.",
    }),
    channel: t.field({
      type: ConversationChannel,
      description: "Only conversations on this channel.",
    }),
    search: t.string({ description: "Free text, matched by the upstream." }),
    startDate: t.field({ type: "DateTime", description: "Conversations started at or after." }),
    endDate: t.field({ type: "DateTime", description: "Conversations started at or before." }),
  }),
});

type FilterInput = typeof ConversationFilter.$inferInput;

/** The upstream query for a filter, checked before any call. */
export function toQuery(filter: FilterInput | null | undefined): ListConversationsQuery {
  const query: ListConversationsQuery = {};
  if (!filter) return query;
  if (filter.agentId != null) query.agentId = assertId("agent", filter.agentId, "filter.agentId");
  if (filter.contactId != null) {
    query.contactId = assertId("contact", filter.contactId, "filter.contactId");
  }
  if (filter.status != null) query.status = filter.status;
  if (filter.direction != null) query.direction = filter.direction;
  if (filter.channel != null) query.channel = filter.channel;
  if (filter.search != null) query.search = filter.search;
  if (filter.startDate != null) query.startDate = filter.startDate.toISOString();
  if (filter.endDate != null) query.endDate = filter.endDate.toISOString();
  if (query.startDate && query.endDate && query.startDate > query.endDate) {
    throw badUserInput("`filter.startDate` must not be after `filter.endDate`.", {
      argument: "filter",
    });
  }
  return query;
}

/** Pins one filter field to the parent's ID (Agent.conversations, Contact.conversations). */
export function pinned(
  query: ListConversationsQuery,
  field: "agentId" | "contactId",
  id: string,
): ListConversationsQuery {
  if (query[field] !== undefined && query[field] !== id) {
    throw badUserInput(`\`filter.${field}\` must be omitted or equal this object's ID (${id}).`, {
      argument: `filter.${field}`,
    });
  }
  return { ...query, [field]: id };
}
