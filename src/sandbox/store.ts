import type { OrganizationField } from "./request-shapes.ts";
import type {
  AgentStatus,
  ConversationChannel,
  ConversationDirection,
  ConversationStatus,
} from "./vocabulary.ts";
import type {
  WireAgent,
  WireCampaign,
  WireContact,
  WireDocument,
  WirePhoneNumber,
  WirePropertyDefinition,
  WireToolCatalogEntry,
} from "./wire-shapes.ts";

export type OrganizationRecord = { [K in OrganizationField]: string } & {
  id: string;
  createdAt: string;
  updatedAt: string;
};

/** The stored agent always has a status; the update response leaves it out. */
export type AgentRecord = WireAgent & { status: AgentStatus };

/**
 * Times are kept in epoch milliseconds so live calls can be advanced from the clock; the DTO
 * (with ISO strings and the current duration) is built when answering.
 */
export interface ConversationRecord {
  id: string;
  agentId: string | null;
  contactId: string | null;
  status: ConversationStatus;
  direction: ConversationDirection;
  channel: ConversationChannel;
  startedAtMs: number;
  endedAtMs: number | null;
  /** Frozen duration in seconds once ended; ignored while IN_PROGRESS (computed from the clock). */
  durationSeconds: number;
  summary: string | null;
  createdAtMs: number;
  /** Set on live calls: the moment they end by themselves. */
  endsAtMs?: number;
}

/** Everything one organization owns. Lookups only ever go through the caller's own record. */
export interface OrgData {
  organization: OrganizationRecord;
  agents: Map<string, AgentRecord>;
  contacts: Map<string, WireContact>;
  conversations: Map<string, ConversationRecord>;
  campaigns: Map<string, WireCampaign>;
  phoneNumbers: Map<string, WirePhoneNumber>;
  properties: Map<string, WirePropertyDefinition>;
  tools: WireToolCatalogEntry[];
  documents: Map<string, WireDocument>;
  /** Live-call bookkeeping: how many calls the interval schedule has started so far. */
  liveCallsStarted: number;
  /** Who takes part in new live calls (the agents and contacts of the seeded conversations). */
  callParticipants: { agentIds: string[]; contactIds: string[] };
}

/** Organizations keyed by organization id. */
export type Store = Map<string, OrgData>;
