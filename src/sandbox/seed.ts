import { acmeSeed } from "./seed-acme.ts";
import { seededLiveCalls, staticConversations } from "./seed-conversations.ts";
import { globexSeed } from "./seed-globex.ts";
import { toolCatalog } from "./seed-tools.ts";
import type {
  AgentRecord,
  ConversationRecord,
  OrganizationRecord,
  OrgData,
  Store,
} from "./store.ts";
import type {
  WireCampaign,
  WireContact,
  WireDocument,
  WirePhoneNumber,
  WirePropertyDefinition,
} from "./wire-shapes.ts";

/** One organization's seed, written out by hand except for the generated conversations. */
export interface OrgSeed {
  /** Used in seeded ids, e.g. `cnv_<slug>_0001`. */
  slug: string;
  organization: OrganizationRecord;
  agents: AgentRecord[];
  contacts: WireContact[];
  /** Conversations only ever involve these agents (the first few). */
  conversationAgentIds: string[];
  staticConversations: number;
  liveCalls: number;
  campaigns: WireCampaign[];
  phoneNumbers: WirePhoneNumber[];
  properties: WirePropertyDefinition[];
  documents: WireDocument[];
}

function byId<T extends { id: string }>(items: T[]): Map<string, T> {
  return new Map(items.map((item) => [item.id, item]));
}

function buildOrg(seed: OrgSeed, nowMs: number, callDurationMs: number): OrgData {
  const contactIds = seed.contacts.map((contact) => contact.id);
  const conversations: ConversationRecord[] = [
    ...staticConversations(
      seed.slug,
      seed.staticConversations,
      seed.conversationAgentIds,
      contactIds,
    ),
    ...seededLiveCalls(
      seed.slug,
      seed.liveCalls,
      seed.conversationAgentIds,
      contactIds,
      nowMs,
      callDurationMs,
    ),
  ];
  // Records are copied so that a store's mutations never leak into another sandbox's seed.
  return structuredClone({
    organization: seed.organization,
    agents: byId(seed.agents),
    contacts: byId(seed.contacts),
    conversations: byId(conversations),
    campaigns: byId(seed.campaigns),
    phoneNumbers: byId(seed.phoneNumbers),
    properties: byId(seed.properties),
    tools: toolCatalog(),
    documents: byId(seed.documents),
    liveCallsStarted: 0,
    callParticipants: { agentIds: seed.conversationAgentIds, contactIds },
  });
}

/** A fresh, fully seeded store: every sandbox gets its own. */
export function seedStore(nowMs: number, callDurationMs: number): Store {
  const store: Store = new Map();
  for (const seed of [acmeSeed(), globexSeed()]) {
    store.set(seed.organization.id, buildOrg(seed, nowMs, callDurationMs));
  }
  return store;
}
