import { type Dialect, dialectDuration } from "./dialects.ts";
import type { ConversationRecord } from "./store.ts";
import type { JsonObject } from "./vocabulary.ts";
import type { WireConversation, WireConversationStatusView } from "./wire-shapes.ts";

/** Whole seconds: frozen once ended, growing with the clock while IN_PROGRESS. */
export function currentDuration(conversation: ConversationRecord, nowMs: number): number {
  if (conversation.status === "IN_PROGRESS") {
    return Math.max(0, Math.floor((nowMs - conversation.startedAtMs) / 1000));
  }
  return conversation.durationSeconds;
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** An id as the dialect refers to another resource: the id itself, or `{ id }`. */
function ref(dialect: Dialect, id: string | null): string | { id: string } | null {
  return dialect.conversationRefs === "flat" || id === null ? id : { id };
}

/** A conversation list item in the standard dialect's shape (the gateway's DTO). */
function standardConversation(conversation: ConversationRecord, nowMs: number): WireConversation {
  return {
    id: conversation.id,
    agentId: conversation.agentId,
    contactId: conversation.contactId,
    status: conversation.status,
    direction: conversation.direction,
    channel: conversation.channel,
    duration: currentDuration(conversation, nowMs),
    startedAt: new Date(conversation.startedAtMs).toISOString(),
    endedAt: iso(conversation.endedAtMs),
    summary: conversation.summary,
    createdAt: new Date(conversation.createdAtMs).toISOString(),
  };
}

/** A conversation list item as the dialect shapes it: how it refers, its duration's unit. */
export function conversationDto(
  conversation: ConversationRecord,
  nowMs: number,
  dialect: Dialect,
): JsonObject {
  const { id, agentId, contactId, duration, ...rest } = standardConversation(conversation, nowMs);
  const refs =
    dialect.conversationRefs === "flat"
      ? { agentId, contactId }
      : { agent: ref(dialect, agentId), contact: ref(dialect, contactId) };
  return { id, ...refs, ...rest, duration: dialectDuration(dialect, duration) };
}

/** Operation 8: the seed's four fields, and the call's state too where the dialect adds it. */
export function conversationStatusDto(
  conversation: ConversationRecord,
  nowMs: number,
  dialect: Dialect,
): WireConversationStatusView | JsonObject {
  const seedFields = {
    id: conversation.id,
    duration: dialectDuration(dialect, currentDuration(conversation, nowMs)),
    startedAt: new Date(conversation.startedAtMs).toISOString(),
    endedAt: iso(conversation.endedAtMs),
  };
  if (!dialect.statusViewExtras) return seedFields;
  return {
    ...seedFields,
    status: conversation.status,
    agentId: conversation.agentId,
    contactId: conversation.contactId,
    direction: conversation.direction,
    channel: conversation.channel,
  };
}

/** Newest first; ties broken by id so pages never overlap or skip. */
export function byStartedAtDesc(a: ConversationRecord, b: ConversationRecord): number {
  if (a.startedAtMs !== b.startedAtMs) return b.startedAtMs - a.startedAtMs;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
