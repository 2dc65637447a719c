import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import {
  AgentWithVoiceConfigsDocument,
  CampaignPageDocument,
  ConversationsWithAgentsDocument,
  OrganizationDocument,
  OrganizationOverviewDocument,
} from "../generated/graphql.ts";
import { harness, NO_NEW_CALLS, oneHarnessPerFile } from "./file-harness.ts";
import { ACME_ORGANIZATION } from "./harness.ts";
import { organizationExtras } from "./sandbox-answers.ts";

oneHarnessPerFile(NO_NEW_CALLS);

const RECEPTION_VOICE_CONFIGS = [
  {
    id: "vc_acme_reception_en",
    voiceId: "voice_ava",
    language: "en-US",
    label: "Ava (English)",
    settings: { speed: 1, stability: 0.6 },
    isDefault: true,
  },
  {
    id: "vc_acme_reception_es",
    voiceId: "voice_lucia",
    language: "es-ES",
    label: "Lucía (Spanish)",
    settings: { speed: 1, stability: 0.6 },
    isDefault: false,
  },
];

const RECEPTION = { id: SEED_IDS.acmeAgent, name: "Reception" };
const SCHEDULER = { id: SEED_IDS.acmeAgentPaused, name: "Scheduler" };

/** The three newest inbound FAILED conversations of Acme. */
const FAILED_INBOUND = [
  {
    id: "cnv_acme_0111",
    status: "FAILED",
    direction: "INBOUND",
    channel: "VOICE",
    startedAt: "2026-01-29T07:50:00.000Z",
    agent: RECEPTION,
  },
  {
    id: "cnv_acme_0099",
    status: "FAILED",
    direction: "INBOUND",
    channel: "SMS",
    startedAt: "2026-01-26T19:26:00.000Z",
    agent: SCHEDULER,
  },
  {
    id: "cnv_acme_0087",
    status: "FAILED",
    direction: "INBOUND",
    channel: "CHAT",
    startedAt: "2026-01-24T07:02:00.000Z",
    agent: RECEPTION,
  },
];
const FAILED_INBOUND_LIST =
  "GET /v1/conversations?limit=4&offset=0&status=FAILED&direction=INBOUND";

const FIRST_CAMPAIGNS = [
  { id: "cmp_acme_flu_shots", name: "Flu shot reminders", status: "COMPLETED", failedRows: 12 },
  { id: "cmp_acme_reminders", name: "Appointment reminders", status: "RUNNING", failedRows: 0 },
  {
    id: "cmp_acme_survey",
    name: "Patient satisfaction survey",
    status: "COMPLETED",
    failedRows: 0,
  },
];

describe("the overview a frontend asks for, answered from the sandbox", () => {
  it("answers organization, agent with voice configs, filtered conversations with agents and campaigns in one operation", async () => {
    const response = await harness.graphql(OrganizationOverviewDocument, {
      agentId: SEED_IDS.acmeAgent,
      conversationsFirst: 3,
      conversationFilter: { status: "FAILED", direction: "INBOUND" },
      campaignsFirst: 3,
    });

    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({
      organization: { name: "Acme Health", city: "Boston", timezone: "America/New_York" },
      agent: {
        ...RECEPTION,
        status: "ACTIVE",
        voiceConfigs: RECEPTION_VOICE_CONFIGS.map(({ settings: _settings, ...config }) => config),
      },
      conversations: {
        totalCount: 10,
        nodes: FAILED_INBOUND.map(({ id, status, agent }) => ({ id, status, agent })),
      },
      campaigns: { pageInfo: { hasNextPage: true }, nodes: FIRST_CAMPAIGNS },
    });
    // The reception agent is needed twice (root field, conversations) and fetched once.
    expect(harness.takeUpstreamRequests().sort()).toEqual([
      "GET /v1/agents/agt_acme_reception",
      "GET /v1/agents/agt_acme_scheduler",
      "GET /v1/campaigns?limit=3",
      FAILED_INBOUND_LIST,
      "GET /v1/organization",
    ]);
  });

  it("answers the organization with its nine fields and the upstream object", async () => {
    const response = await harness.graphql(OrganizationDocument);

    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({
      organization: {
        ...ACME_ORGANIZATION,
        raw: {
          id: SEED_IDS.acmeOrganization,
          ...ACME_ORGANIZATION,
          ...organizationExtras("2025-12-06T09:00:00.000Z", "2025-12-06T09:00:00.000Z"),
        },
      },
    });
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
  });

  it("answers an agent with every field and its voice configs", async () => {
    const response = await harness.graphql(AgentWithVoiceConfigsDocument, {
      id: SEED_IDS.acmeAgent,
    });

    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({
      agent: {
        ...RECEPTION,
        primaryLanguage: "en-US",
        status: "ACTIVE",
        systemPrompt: "You are the front desk of Acme Health. Book, move and cancel appointments.",
        greeting: "Thank you for calling Acme Health, how can I help?",
        model: "gpt-4o",
        metadata: { department: "front-desk", afterHours: true },
        createdAt: "2026-01-05T10:00:00.000Z",
        updatedAt: "2026-01-05T10:00:00.000Z",
        supportedLanguages: ["en-US", "es-ES"],
        voiceConfigs: RECEPTION_VOICE_CONFIGS,
      },
    });
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/agents/agt_acme_reception"]);
  });

  it("answers a filtered page of conversations with their agents, and the next page from its cursor", async () => {
    const response = await harness.graphql(ConversationsWithAgentsDocument, {
      first: 3,
      filter: { status: "FAILED", direction: "INBOUND" },
    });

    expect(response.body.errors).toBeUndefined();
    const page = response.body.data?.conversations;
    expect(page?.totalCount).toBe(10);
    expect(page?.edges.map((edge) => edge.node)).toEqual(FAILED_INBOUND);
    const cursors = page?.edges.map((edge) => edge.cursor) ?? [];
    expect(new Set(cursors).size).toBe(3);
    expect(page?.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: cursors[0],
      endCursor: cursors[2],
    });
    const requests = harness.takeUpstreamRequests();
    expect(requests[0]).toBe(FAILED_INBOUND_LIST);
    expect(requests.slice(1).sort()).toEqual([
      "GET /v1/agents/agt_acme_reception",
      "GET /v1/agents/agt_acme_scheduler",
    ]);

    const next = await harness.graphql(ConversationsWithAgentsDocument, {
      first: 3,
      after: page?.pageInfo.endCursor,
      filter: { status: "FAILED", direction: "INBOUND" },
    });

    expect(next.body.errors).toBeUndefined();
    expect(next.body.data?.conversations?.edges.map((edge) => edge.node.id)).toEqual([
      "cnv_acme_0075",
      "cnv_acme_0063",
      "cnv_acme_0051",
    ]);
    expect(next.body.data?.conversations?.pageInfo).toMatchObject({
      hasNextPage: true,
      hasPreviousPage: true,
    });
    // The cursor's own item (offset 2) is read again to check the list did not move.
    expect(harness.takeUpstreamRequests()[0]).toBe(
      "GET /v1/conversations?limit=5&offset=2&status=FAILED&direction=INBOUND",
    );
  });

  it("answers a campaign page, and the next page from its cursor", async () => {
    const response = await harness.graphql(CampaignPageDocument, { first: 3 });

    expect(response.body.errors).toBeUndefined();
    const page = response.body.data?.campaigns;
    // The cursor form tells no total.
    expect(page).toMatchObject({
      totalCount: null,
      pageInfo: { hasNextPage: true },
      nodes: FIRST_CAMPAIGNS,
    });
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/campaigns?limit=3"]);

    const next = await harness.graphql(CampaignPageDocument, {
      first: 2,
      after: page?.pageInfo.endCursor,
    });

    expect(next.body.errors).toBeUndefined();
    expect(next.body.data?.campaigns?.nodes).toEqual([
      { id: "cmp_acme_04", name: "Campaign 04", status: "COMPLETED", failedRows: 5 },
      { id: "cmp_acme_05", name: "Campaign 05", status: "FAILED", failedRows: 94 },
    ]);
    const [request, ...others] = harness.takeUpstreamRequests();
    expect(others).toEqual([]);
    expect(request).toMatch(/^GET \/v1\/campaigns\?cursor=[^&]+&limit=2$/);
  });
});
