import type { ConversationDto, ConversationStatusDto } from "../upstream/dto.ts";
import type { ConversationRecord } from "./store.ts";

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

export function conversationDto(conversation: ConversationRecord, nowMs: number): ConversationDto {
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

export function conversationStatusDto(
  conversation: ConversationRecord,
  nowMs: number,
): ConversationStatusDto {
  return {
    id: conversation.id,
    duration: currentDuration(conversation, nowMs),
    startedAt: new Date(conversation.startedAtMs).toISOString(),
    endedAt: iso(conversation.endedAtMs),
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
