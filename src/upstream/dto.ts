/**
 * Wire shapes of the Voice AI Agent Platform REST API (`/v1`), as the gateway reads them:
 * declared once and used by the REST client, the loaders and the Pothos refs; the operations
 * table (operations.ts) names which operation answers each. The sandbox keeps its own
 * (src/sandbox/wire-shapes.ts).
 *
 * Shapes the seed shows are typed as it shows them. Shapes it does not show (contacts,
 * campaigns, documents, tools, phone numbers, stats) are the sandbox's choices, listed in the
 * README; the gateway reads them defensively because another upstream may send other fields.
 */

import type {
  AgentStatus,
  CampaignStatus,
  ConversationChannel,
  ConversationDirection,
  ConversationStatus,
  DocumentStatus,
} from "./enums.ts";
import type { JsonObject } from "./json.ts";

// ---------------------------------------------------------------------------------------------
// Errors and pagination (seed: Errors, Pagination conventions)

/** Form 1: page/pageSize (default 20, max 100). */
export interface PageResponse<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** Form 2: opaque cursor (default 25, max 100). */
export interface CursorResponse<T> {
  items: T[];
  nextCursor: string | null;
}

/** Form 3: limit/offset, conversations only (limit default 50, 1..100; offset >= 0). */
export interface OffsetResponse<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

// ---------------------------------------------------------------------------------------------
// Organization (operations 1, 2)

export const ORGANIZATION_WRITABLE_FIELDS = [
  "name",
  "description",
  "url",
  "industry",
  "country",
  "city",
  "telephone",
  "email",
  "timezone",
] as const;
export type OrganizationWritableField = (typeof ORGANIZATION_WRITABLE_FIELDS)[number];

export type OrganizationDto = { [K in OrganizationWritableField]?: string | null } & {
  id?: string;
  createdAt?: string;
  updatedAt?: string;
} & JsonObject;

export type UpdateOrganizationBody = { [K in OrganizationWritableField]?: string };

// ---------------------------------------------------------------------------------------------
// Agents (operations 3, 4, 5 and the assumed create/list)

export interface VoiceConfigDto {
  id: string;
  voiceId: string;
  language: string;
  label: string;
  settings: JsonObject;
  isDefault: boolean;
}

/**
 * Request shape of a voice config (the seed shows only "an array of objects"). Sandbox choice:
 * the response fields, `id` optional (kept when it names an existing config, else generated).
 */
export interface VoiceConfigInputDto {
  id?: string;
  voiceId: string;
  language: string;
  label?: string;
  settings?: JsonObject;
  isDefault?: boolean;
}

export interface AgentDto {
  id: string;
  name: string;
  primaryLanguage: string;
  /** Present in the get-agent response; absent from the update-agent response. */
  status?: AgentStatus;
  systemPrompt: string;
  greeting: string;
  model: string;
  metadata: JsonObject;
  createdAt: string;
  updatedAt: string;
  supportedLanguages: string[];
  voiceConfigs: VoiceConfigDto[];
}

export interface UpdateAgentBody {
  name?: string;
  primaryLanguage?: string;
  systemPrompt?: string;
  greeting?: string;
  model?: string;
  voiceConfigs?: VoiceConfigInputDto[];
  metadata?: JsonObject;
}

/** Assumed `POST /v1/agents`: `name` is required, the rest as in an update. */
export interface CreateAgentBody extends UpdateAgentBody {
  name: string;
  supportedLanguages?: string[];
}

// ---------------------------------------------------------------------------------------------
// Campaigns (operations 11, 12 and the assumed list/get)

export interface CampaignDto {
  id: string;
  name: string;
  status: CampaignStatus;
  agentId: string | null;
  totalRows: number;
  completedRows: number;
  failedRows: number;
  scheduledAt: string | null;
  createdAt: string;
  updatedAt: string;
}

// ---------------------------------------------------------------------------------------------
// Phone numbers, properties, tools, documents (operations 6, 9, 13, 14)

export interface AssignPhoneNumberBody {
  phoneNumberId: string;
  agentId: string;
}

export interface ToolCatalogEntryDto {
  id: string;
  name: string;
  description: string;
  category: string;
  type: "FUNCTION" | "INTEGRATION";
  parameters: JsonObject;
}

export interface DocumentDto {
  id: string;
  name: string;
  mimeType: string;
  sizeBytes: number;
  status: DocumentStatus;
  createdAt: string;
  updatedAt: string;
}

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
// Statistics (operations 5, 10)

/**
 * Operation 5's answer. The seed does not show its body, so the gateway keeps no field of it:
 * any JSON object, exposed as `Agent.stats: JSONObject` as it comes.
 */
export type AgentStatsDto = JsonObject;

/** Operation 10's answer ("call and interaction statistics"; body not shown), as AgentStatsDto. */
export type ContactStatsDto = JsonObject;
