/** Conversations (operations 7, 8), contacts and stats (operations 5, 10) as the gateway reads them. */

import type { ConversationChannel, ConversationDirection, ConversationStatus } from "./enums.ts";

// ---------------------------------------------------------------------------------------------
// Conversations (operations 7, 8)

/** List item (the seed does not show it; sandbox choice). */
export interface ConversationDto {
  id: string;
  agentId: string | null;
  contactId: string | null;
  status: ConversationStatus;
  direction: ConversationDirection;
  channel: ConversationChannel;
  /** Seconds (the seed does not give the unit). */
  duration: number;
  startedAt: string;
  endedAt: string | null;
  summary: string | null;
  createdAt: string;
}

/**
 * Operation 8. The seed shows id, duration, startedAt, endedAt; the sandbox adds the call's
 * status and parties, so a conversation loaded by ID can show its agent and contact.
 */
export interface ConversationStatusDto {
  id: string;
  duration: number;
  startedAt: string;
  endedAt: string | null;
  status?: ConversationStatus;
  agentId?: string | null;
  contactId?: string | null;
  direction?: ConversationDirection;
  channel?: ConversationChannel;
}

export interface ListConversationsQuery {
  limit?: number;
  offset?: number;
  agentId?: string;
  contactId?: string;
  status?: ConversationStatus;
  direction?: ConversationDirection;
  channel?: ConversationChannel;
  search?: string;
  startDate?: string;
  endDate?: string;
}

// ---------------------------------------------------------------------------------------------
// Contacts (operation 10)
