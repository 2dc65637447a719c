import type { OrgSeed } from "./seed.ts";
import {
  generatedCampaigns,
  isoAt,
  knowledgeDocument,
  propertyDefinition,
  simpleAgents,
  voiceConfig,
} from "./seed-builders.ts";
import { SEED_COUNTS, SEED_IDS } from "./seed-data.ts";

/** Globex: a second, smaller organization whose ids must never be reachable with Acme's keys. */
export function globexSeed(): OrgSeed {
  const agentIds = [SEED_IDS.globexAgent, "agt_globex_sales"];
  return {
    slug: "globex",
    organization: {
      id: SEED_IDS.globexOrganization,
      name: "Globex Corporation",
      description: "Industrial supplies, sold by phone.",
      url: "https://globex.example",
      industry: "Manufacturing",
      country: "DE",
      city: "Berlin",
      telephone: "+49305550100",
      email: "contact@globex.example",
      timezone: "Europe/Berlin",
      createdAt: isoAt(-24 * 10),
      updatedAt: isoAt(-24 * 10),
    },
    agents: [
      {
        id: SEED_IDS.globexAgent,
        name: "Support",
        primaryLanguage: "de-DE",
        status: "ACTIVE",
        systemPrompt: "You help customers track orders.",
        greeting: "Globex Kundendienst, guten Tag!",
        model: "gpt-4o",
        metadata: { region: "EMEA" },
        createdAt: isoAt(1),
        updatedAt: isoAt(1),
        supportedLanguages: ["de-DE", "en-GB"],
        voiceConfigs: [
          voiceConfig("vc_globex_support_de", "voice_hans", "de-DE", "Hans (German)", true),
        ],
      },
      {
        id: "agt_globex_sales",
        name: "Sales",
        primaryLanguage: "en-GB",
        status: "PAUSED",
        systemPrompt: "You qualify inbound sales leads.",
        greeting: "Globex sales, how can I help?",
        model: "gpt-4o-mini",
        metadata: {},
        createdAt: isoAt(2),
        updatedAt: isoAt(2),
        supportedLanguages: ["en-GB"],
        voiceConfigs: [],
      },
      ...simpleAgents("globex", 3, SEED_COUNTS.globex.agents),
    ],
    contacts: [
      ["Hank", "Scorpio"],
      ["Frank", "Grimes"],
      ["Mindy", "Simmons"],
    ].map(([firstName = "", lastName = ""], n) => ({
      id: `cnt_globex_${firstName.toLowerCase()}`,
      firstName,
      lastName,
      phoneNumber: `+49305551${String(100 + n)}`,
      email: `${firstName.toLowerCase()}@globex.example`,
      createdAt: isoAt(3 + n),
    })),
    conversationAgentIds: agentIds,
    staticConversations: SEED_COUNTS.globex.conversations - SEED_COUNTS.globex.liveConversations,
    liveCalls: SEED_COUNTS.globex.liveConversations,
    campaigns: [
      {
        id: SEED_IDS.globexCampaign,
        name: "Product launch",
        status: "COMPLETED",
        agentId: SEED_IDS.globexAgent,
        totalRows: 50,
        completedRows: 45,
        failedRows: 5,
        scheduledAt: isoAt(30),
        createdAt: isoAt(20),
        updatedAt: isoAt(50),
      },
      ...generatedCampaigns("globex", 2, SEED_COUNTS.globex.campaigns, agentIds),
    ],
    phoneNumbers: [
      {
        id: "phn_globex_01",
        number: "+49305550201",
        country: "DE",
        agentId: SEED_IDS.globexAgent,
        assignedAt: isoAt(12),
      },
      {
        id: SEED_IDS.globexPhoneNumber,
        number: "+49305550202",
        country: "DE",
        agentId: null,
        assignedAt: null,
      },
    ],
    properties: [
      propertyDefinition("globex", "account_tier", "Account tier", "STRING", 4),
      propertyDefinition("globex", "last_order_at", "Last order", "DATE", 5),
    ],
    documents: [
      knowledgeDocument(
        SEED_IDS.globexDocument,
        "Handbook.pdf",
        "application/pdf",
        88_000,
        "READY",
        6,
      ),
      knowledgeDocument("doc_globex_catalog", "Catalog.csv", "text/csv", 12_345, "READY", 7),
    ],
  };
}
