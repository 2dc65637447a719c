import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { NodeByIdDocument, NodesByIdsDocument } from "../generated/graphql.ts";
import { harness, NO_NEW_CALLS, oneHarnessPerFile } from "./file-harness.ts";
import { GATEWAY_REQUEST_ID, GLOBEX } from "./harness.ts";
import { sandboxDate, statsDuration } from "./sandbox-answers.ts";

oneHarnessPerFile(NO_NEW_CALLS);

/** The list request that holds the seeded Acme conversation, which started at 09:00:00. */
const ACME_CONVERSATION_LIST =
  "GET /v1/conversations?limit=100&startDate=2026-01-06T09%3A00%3A00.000Z" +
  "&endDate=2026-01-06T09%3A00%3A00.999Z";

const NODE_ID_PREFIXES = "agt_, cnt_, cnv_, cmp_, prp_, doc_";

describe("node(id) dispatches on the ID's prefix", () => {
  it.each([
    {
      prefix: "agt_",
      id: SEED_IDS.acmeAgentPaused,
      node: {
        __typename: "Agent",
        id: SEED_IDS.acmeAgentPaused,
        agentName: "Scheduler",
        agentStatus: "PAUSED",
      },
      requests: ["GET /v1/agents/agt_acme_scheduler"],
    },
    {
      // Operation 10 is the only contact read: loading the stats proves the contact exists.
      prefix: "cnt_",
      id: "cnt_acme_noah",
      node: {
        __typename: "Contact",
        id: "cnt_acme_noah",
        stats: {
          contactId: "cnt_acme_noah",
          totalConversations: 5,
          inbound: 3,
          outbound: 2,
          byStatus: { FAILED: 1, UNKNOWN: 1, VOICEMAIL: 2, NO_ANSWER: 1 },
          ...statsDuration("totalDuration", 104),
          lastInteractionAt: sandboxDate("2026-01-17T10:41:00.000Z"),
        },
      },
      requests: ["GET /v1/contacts/cnt_acme_noah/stats"],
    },
    {
      prefix: "cnv_",
      id: SEED_IDS.acmeConversation,
      node: {
        __typename: "Conversation",
        id: SEED_IDS.acmeConversation,
        conversationStatus: "SUCCESS",
        duration: 60,
        startedAt: "2026-01-06T09:00:00.000Z",
        endedAt: "2026-01-06T09:01:00.000Z",
        contact: { id: SEED_IDS.acmeContact },
      },
      // The status view gives its start, the list filtered to that second the full item.
      requests: ["GET /v1/conversations/cnv_acme_0001/status", ACME_CONVERSATION_LIST],
    },
    {
      prefix: "cmp_",
      id: SEED_IDS.acmeCampaignWithFailedRows,
      node: {
        __typename: "Campaign",
        id: SEED_IDS.acmeCampaignWithFailedRows,
        name: "Flu shot reminders",
        campaignStatus: "COMPLETED",
        failedRows: 12,
      },
      requests: ["GET /v1/campaigns/cmp_acme_flu_shots"],
    },
    {
      // The REST API cannot read a property definition: the node is a reference, no call.
      prefix: "prp_",
      id: SEED_IDS.acmeProperty,
      node: { __typename: "PropertyDefinition", id: SEED_IDS.acmeProperty },
      requests: [],
    },
    {
      prefix: "doc_",
      id: SEED_IDS.acmeDocument,
      node: {
        __typename: "Document",
        id: SEED_IDS.acmeDocument,
        name: "Patient FAQ.md",
        mimeType: "text/markdown",
        documentStatus: "READY",
      },
      requests: ["GET /v1/documents/doc_acme_faq"],
    },
  ])(
    "resolves $prefix to $node.__typename with the right upstream request",
    async ({ id, node, requests }) => {
      const response = await harness.graphql(NodeByIdDocument, { id });

      expect(response.status).toBe(200);
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data).toEqual({ node });
      expect(harness.takeUpstreamRequests()).toEqual(requests);
    },
  );

  it.each([
    ["an unknown prefix", "usr_123"],
    ["a bare prefix", "agt_"],
    ["an ID of a resource that is not a node", SEED_IDS.acmePhoneNumberAssigned],
  ])("refuses %s with BAD_USER_INPUT, HTTP 400, without any call", async (_case, id) => {
    const response = await harness.graphql(NodeByIdDocument, { id });

    expect(response.status).toBe(400);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors).toEqual([
      {
        message: `"${id}" is not a node ID: it must start with one of ${NODE_ID_PREFIXES}.`,
        locations: [{ line: 2, column: 8 }],
        extensions: {
          code: "BAD_USER_INPUT",
          http: { status: 400 },
          argument: "id",
          requestId: GATEWAY_REQUEST_ID,
        },
      },
    ]);
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("answers NOT_FOUND for an ID of another organization (tenant isolation)", async () => {
    const response = await harness.graphql(
      NodeByIdDocument,
      { id: SEED_IDS.acmeAgent },
      { authorization: GLOBEX },
    );

    expect(response.body.data).toEqual({ node: null });
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors?.[0]).toMatchObject({
      path: ["node"],
      extensions: {
        code: "NOT_FOUND",
        upstream: { status: 404, code: "NOT_FOUND" },
      },
    });
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/agents/agt_acme_reception"]);
  });

  it("answers the caller's own organization's node with the same key", async () => {
    const response = await harness.graphql(
      NodeByIdDocument,
      { id: SEED_IDS.globexDocument },
      { authorization: GLOBEX },
    );

    expect(response.body.errors).toBeUndefined();
    expect(response.body.data?.node).toMatchObject({
      __typename: "Document",
      id: SEED_IDS.globexDocument,
    });
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/documents/doc_globex_handbook"]);
  });
});

describe("nodes(ids)", () => {
  it("keeps the order of the IDs across types", async () => {
    const ids = [
      SEED_IDS.acmeDocument,
      SEED_IDS.acmeAgent,
      SEED_IDS.acmeProperty,
      SEED_IDS.acmeCampaignRunning,
      SEED_IDS.acmeConversation,
      SEED_IDS.acmeContact,
    ];

    const response = await harness.graphql(NodesByIdsDocument, { ids });

    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({
      nodes: [
        { __typename: "Document", id: SEED_IDS.acmeDocument },
        { __typename: "Agent", id: SEED_IDS.acmeAgent },
        { __typename: "PropertyDefinition", id: SEED_IDS.acmeProperty },
        { __typename: "Campaign", id: SEED_IDS.acmeCampaignRunning },
        { __typename: "Conversation", id: SEED_IDS.acmeConversation },
        { __typename: "Contact", id: SEED_IDS.acmeContact },
      ],
    });
    expect(harness.takeUpstreamRequests().sort()).toEqual([
      "GET /v1/agents/agt_acme_reception",
      "GET /v1/campaigns/cmp_acme_reminders",
      "GET /v1/contacts/cnt_acme_maria/stats",
      "GET /v1/conversations/cnv_acme_0001/status",
      ACME_CONVERSATION_LIST,
      "GET /v1/documents/doc_acme_faq",
    ]);
  });

  it("answers null with its own NOT_FOUND error for a missing ID while the others resolve", async () => {
    const response = await harness.graphql(NodesByIdsDocument, {
      ids: [SEED_IDS.acmeAgent, "agt_acme_missing", SEED_IDS.acmeDocument],
    });

    expect(response.body.data).toEqual({
      nodes: [
        { __typename: "Agent", id: SEED_IDS.acmeAgent },
        null,
        { __typename: "Document", id: SEED_IDS.acmeDocument },
      ],
    });
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors?.[0]).toMatchObject({
      message: "Agent agt_acme_missing was not found.",
      path: ["nodes", 1],
      extensions: {
        code: "NOT_FOUND",
        upstream: {
          status: 404,
          code: "NOT_FOUND",
          message: "Agent agt_acme_missing was not found.",
          details: { id: "agt_acme_missing" },
        },
      },
    });
    expect(harness.takeUpstreamRequests().sort()).toEqual([
      "GET /v1/agents/agt_acme_missing",
      "GET /v1/agents/agt_acme_reception",
      "GET /v1/documents/doc_acme_faq",
    ]);
  });

  it("refuses the whole operation for an ID without a node prefix, naming its place, no call", async () => {
    const response = await harness.graphql(NodesByIdsDocument, {
      ids: [SEED_IDS.acmeAgent, "nope"],
    });

    expect(response.status).toBe(400);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors?.map((error) => error.extensions)).toEqual([
      {
        code: "BAD_USER_INPUT",
        http: { status: 400 },
        argument: "ids[1]",
        requestId: GATEWAY_REQUEST_ID,
      },
    ]);
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("fetches an ID given twice once", async () => {
    const response = await harness.graphql(NodesByIdsDocument, {
      ids: [SEED_IDS.acmeCampaignWithFailedRows, SEED_IDS.acmeCampaignWithFailedRows],
    });

    const campaign = { __typename: "Campaign", id: SEED_IDS.acmeCampaignWithFailedRows };
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({ nodes: [campaign, campaign] });
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/campaigns/cmp_acme_flu_shots"]);
  });

  it("answers NOT_FOUND for each ID of another organization (tenant isolation)", async () => {
    const response = await harness.graphql(
      NodesByIdsDocument,
      { ids: [SEED_IDS.acmeConversation, SEED_IDS.globexConversation, SEED_IDS.acmeDocument] },
      { authorization: GLOBEX },
    );

    expect(response.body.data).toEqual({
      nodes: [null, { __typename: "Conversation", id: SEED_IDS.globexConversation }, null],
    });
    expect(
      response.body.errors
        ?.map((error) => [error.path, error.extensions?.code])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual([
      [["nodes", 0], "NOT_FOUND"],
      [["nodes", 2], "NOT_FOUND"],
    ]);
    expect(harness.takeUpstreamRequests().sort()).toEqual([
      "GET /v1/conversations/cnv_acme_0001/status",
      "GET /v1/conversations/cnv_globex_0001/status",
      expect.stringMatching(/^GET \/v1\/conversations\?limit=100&startDate=/),
      "GET /v1/documents/doc_acme_faq",
    ]);
  });
});
