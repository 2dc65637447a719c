import { byStartedAtDesc, conversationDto, conversationStatusDto } from "../conversation-view.ts";
import { ApiError, notFound } from "../error-codes.ts";
import { SANDBOX_ID_PREFIX } from "../ids.ts";
import { type Operation, ok, param } from "../operation-context.ts";
import {
  ConversationChannel,
  ConversationDirection,
  ConversationStatus,
  type JsonObject,
} from "../vocabulary.ts";

/**
 * Operation 7: limit/offset form, newest first. The free-text parameter (`search`, or the
 * dialect's name for it) is a case-insensitive substring of the
 * summary; `startDate`/`endDate` bound `startedAt`, both inclusive.
 */
export const listConversations: Operation = (ctx) => {
  const { query } = ctx;
  const limit = query.int("limit", { fallback: 50, min: 1, max: 100 });
  const offset = query.int("offset", { fallback: 0, min: 0, max: Number.MAX_SAFE_INTEGER });
  const agentId = query.id("agentId", SANDBOX_ID_PREFIX.agent);
  const contactId = query.id("contactId", SANDBOX_ID_PREFIX.contact);
  const status = query.oneOf("status", ConversationStatus.options);
  const direction = query.oneOf("direction", ConversationDirection.options);
  const channel = query.oneOf("channel", ConversationChannel.options);
  const search = query.string(ctx.dialect.searchParam)?.toLowerCase();
  const startMs = query.dateTime("startDate");
  const endMs = query.dateTime("endDate");
  if (startMs !== undefined && endMs !== undefined && startMs > endMs) {
    throw new ApiError("VALIDATION_ERROR", "`startDate` must not be after `endDate`.", {
      location: "query",
      parameter: "startDate",
      reason: "is after endDate",
    });
  }

  const matching = [...ctx.org.conversations.values()]
    .filter(
      (c) =>
        (agentId === undefined || c.agentId === agentId) &&
        (contactId === undefined || c.contactId === contactId) &&
        (status === undefined || c.status === status) &&
        (direction === undefined || c.direction === direction) &&
        (channel === undefined || c.channel === channel) &&
        (search === undefined || (c.summary ?? "").toLowerCase().includes(search)) &&
        (startMs === undefined || c.startedAtMs >= startMs) &&
        (endMs === undefined || c.startedAtMs <= endMs),
    )
    .sort(byStartedAtDesc);
  const items = matching
    .slice(offset, offset + limit)
    .map((c) => conversationDto(c, ctx.nowMs, ctx.dialect));
  // The seed does not show this body: each dialect echoes its own choice of paging fields.
  const paging = { total: matching.length, limit, offset };
  const body: JsonObject = { items };
  for (const field of ctx.dialect.conversationListEcho) body[field] = paging[field];
  return ok(body);
};

/** Operation 8: meant for polling a live call. */
export const getConversationStatus: Operation = (ctx) => {
  const id = param(ctx, "conversationId");
  const conversation = ctx.org.conversations.get(id);
  if (conversation === undefined) throw notFound("Conversation", id);
  return ok(conversationStatusDto(conversation, ctx.nowMs, ctx.dialect));
};
