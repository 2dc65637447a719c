/** The enumerations of the seed (and of the sandbox where the seed shows none). */

export const AGENT_STATUSES = ["ACTIVE", "PAUSED", "INACTIVE"] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

export const CONVERSATION_STATUSES = [
  "PENDING",
  "IN_PROGRESS",
  "SUCCESS",
  "FAILED",
  "UNKNOWN",
  "NO_ANSWER",
  "VOICEMAIL",
] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

export const CONVERSATION_DIRECTIONS = ["INBOUND", "OUTBOUND"] as const;
export type ConversationDirection = (typeof CONVERSATION_DIRECTIONS)[number];

export const CONVERSATION_CHANNELS = ["VOICE", "CHAT", "SMS"] as const;
export type ConversationChannel = (typeof CONVERSATION_CHANNELS)[number];

/** Sandbox choice: the seed names no campaign states. */
export const CAMPAIGN_STATUSES = [
  "DRAFT",
  "SCHEDULED",
  "RUNNING",
  "PAUSED",
  "COMPLETED",
  "FAILED",
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const DOCUMENT_STATUSES = ["PROCESSING", "READY", "FAILED"] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
