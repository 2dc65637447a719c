/**
 * The sandbox's own reading of the REST description's vocabulary: the values it stores, answers
 * and documents (`.options` lists them). It shares nothing with the gateway's reading
 * (src/upstream), so a test of the gateway against the sandbox proves that two readings agree,
 * not that one copied the other.
 */
import { z } from "zod";

export const AgentStatus = z
  .enum(["ACTIVE", "PAUSED", "INACTIVE"])
  .describe("An agent's status (seed: Agent).");
export type AgentStatus = z.infer<typeof AgentStatus>;

export const ConversationStatus = z
  .enum(["PENDING", "IN_PROGRESS", "SUCCESS", "FAILED", "UNKNOWN", "NO_ANSWER", "VOICEMAIL"])
  .describe("A conversation's status (seed: operation 7's filter); IN_PROGRESS is a live call.");
export type ConversationStatus = z.infer<typeof ConversationStatus>;

export const ConversationDirection = z.enum(["INBOUND", "OUTBOUND"]);
export type ConversationDirection = z.infer<typeof ConversationDirection>;

export const ConversationChannel = z.enum(["VOICE", "CHAT", "SMS"]);
export type ConversationChannel = z.infer<typeof ConversationChannel>;

export const CampaignStatus = z
  .enum(["DRAFT", "SCHEDULED", "RUNNING", "PAUSED", "COMPLETED", "FAILED"])
  .describe("A campaign's status (the sandbox's choice: the seed names none).");
export type CampaignStatus = z.infer<typeof CampaignStatus>;

export const DocumentStatus = z
  .enum(["PROCESSING", "READY", "FAILED"])
  .describe("A document's processing state (the sandbox's choice: the seed names none).");
export type DocumentStatus = z.infer<typeof DocumentStatus>;

export type JsonObject = { [key: string]: unknown };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
