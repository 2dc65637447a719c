import { currentDuration } from "../conversation-view.ts";
import { dialectStats } from "../dialects.ts";
import { notFound } from "../error-codes.ts";
import { type Operation, ok, param } from "../operation-context.ts";
import type { WireContactStats } from "../wire-shapes.ts";

/** Operation 10, computed from the contact's conversations (live ones count their duration so far). */
export const getContactStats: Operation = (ctx) => {
  const id = param(ctx, "contactId");
  if (!ctx.org.contacts.has(id)) throw notFound("Contact", id);
  const stats: WireContactStats = {
    contactId: id,
    totalConversations: 0,
    inbound: 0,
    outbound: 0,
    byStatus: {},
    totalDurationSeconds: 0,
    lastInteractionAt: null,
  };
  let lastStartedAtMs = -Infinity;
  for (const conversation of ctx.org.conversations.values()) {
    if (conversation.contactId !== id) continue;
    stats.totalConversations += 1;
    if (conversation.direction === "INBOUND") stats.inbound += 1;
    else stats.outbound += 1;
    stats.byStatus[conversation.status] = (stats.byStatus[conversation.status] ?? 0) + 1;
    stats.totalDurationSeconds += currentDuration(conversation, ctx.nowMs);
    lastStartedAtMs = Math.max(lastStartedAtMs, conversation.startedAtMs);
  }
  if (stats.totalConversations > 0) {
    stats.lastInteractionAt = new Date(lastStartedAtMs).toISOString();
  }
  return ok(dialectStats(ctx.dialect, stats));
};
