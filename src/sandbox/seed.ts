import { readFileSync } from "node:fs";
import { z } from "zod";
import { generatedCampaigns, simpleAgents } from "./seed-builders.ts";
import { seededLiveCalls, staticConversations } from "./seed-conversations.ts";
import {
  EXTRA_ORGANIZATION_AGENTS,
  extraOrganizationId,
  extraOrganizationSlug,
  SEED_COUNTS,
} from "./seed-data.ts";
import { toolCatalog } from "./seed-tools.ts";
import type {
  AgentRecord,
  ConversationRecord,
  OrganizationRecord,
  OrgData,
  Store,
} from "./store.ts";
import {
  AgentShape,
  CampaignShape,
  ContactShape,
  DocumentShape,
  OrganizationShape,
  PhoneNumberShape,
  PropertyDefinitionShape,
  type WireCampaign,
  type WireContact,
  type WireDocument,
  type WirePhoneNumber,
  type WirePropertyDefinition,
} from "./wire-shapes.ts";

/**
 * One organization's hand-written records, as data (seed/<slug>.json), held to the shapes the
 * sandbox documents: a record the document would not describe fails at start-up.
 */
const OrgSeedData = z.strictObject({
  slug: z.enum(["acme", "globex"]),
  organization: OrganizationShape,
  agents: z.array(AgentShape),
  contacts: z.array(ContactShape),
  campaigns: z.array(CampaignShape),
  phoneNumbers: z.array(PhoneNumberShape),
  properties: z.array(PropertyDefinitionShape),
  documents: z.array(DocumentShape),
});

/** One organization's seed: its written records, then the generated fillers and conversations. */
export interface OrgSeed {
  /** Used in seeded ids, e.g. `cnv_<slug>_0001`. */
  slug: string;
  organization: OrganizationRecord;
  agents: AgentRecord[];
  contacts: WireContact[];
  /** Conversations only ever involve these agents: the ones written out in full. */
  conversationAgentIds: string[];
  staticConversations: number;
  liveCalls: number;
  campaigns: WireCampaign[];
  phoneNumbers: WirePhoneNumber[];
  properties: WirePropertyDefinition[];
  documents: WireDocument[];
}

/** A seed file's records, checked, then used as written (zod's output would reorder their keys). */
export function parseOrgSeed(text: string): z.infer<typeof OrgSeedData> {
  const written: unknown = JSON.parse(text);
  OrgSeedData.parse(written);
  return written as z.infer<typeof OrgSeedData>;
}

/** Reads seed/<slug>.json and adds the generated agents and campaigns up to SEED_COUNTS. */
function orgSeed(slug: "acme" | "globex"): OrgSeed {
  const data = parseOrgSeed(readFileSync(new URL(`./seed/${slug}.json`, import.meta.url), "utf8"));
  const counts = SEED_COUNTS[slug];
  const agentIds = data.agents.map((agent) => agent.id);
  return {
    ...data,
    organization: data.organization as OrganizationRecord,
    agents: [...data.agents, ...simpleAgents(slug, data.agents.length + 1, counts.agents)],
    conversationAgentIds: agentIds,
    staticConversations: counts.conversations - counts.liveConversations,
    liveCalls: counts.liveConversations,
    campaigns: [
      ...data.campaigns,
      ...generatedCampaigns(slug, data.campaigns.length + 1, counts.campaigns, agentIds),
    ],
  };
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

/** Extra organization `n`: Acme's profile under its own ID and name, and its own agents only. */
function extraOrgSeed(n: number, template: OrganizationRecord): OrgSeed {
  const slug = extraOrganizationSlug(n);
  return {
    slug,
    organization: { ...template, id: extraOrganizationId(n), name: `Extra Organization ${n}` },
    agents: simpleAgents(slug, 1, EXTRA_ORGANIZATION_AGENTS),
    contacts: [],
    conversationAgentIds: [],
    staticConversations: 0,
    liveCalls: 0,
    campaigns: [],
    phoneNumbers: [],
    properties: [],
    documents: [],
  };
}

/**
 * A fresh, fully seeded store: every sandbox gets its own. `extraOrganizations` adds that many
 * organizations beside the demo ones (`extraOrganizationKey`), for loads of many distinct keys.
 */
export function seedStore(nowMs: number, callDurationMs: number, extraOrganizations = 0): Store {
  const store: Store = new Map();
  const demo = [orgSeed("acme"), orgSeed("globex")];
  const template = (demo[0] as OrgSeed).organization;
  const extra = Array.from({ length: extraOrganizations }, (_, i) => extraOrgSeed(i + 1, template));
  for (const seed of [...demo, ...extra]) {
    store.set(seed.organization.id, buildOrg(seed, nowMs, callDurationMs));
  }
  return store;
}
