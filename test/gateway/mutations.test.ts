import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import {
  AgentWithVoiceConfigsDocument,
  AssignPhoneNumberDocument,
  CampaignRowsDocument,
  CreateAgentDocument,
  DeleteCampaignDocument,
  DeletePropertyDefinitionDocument,
  OrganizationDocument,
  RenameOrganizationDocument,
  RetryCampaignDocument,
  RetryCampaignRawDocument,
  UpdateAgentDocument,
  UpdateAgentStatusDocument,
  UpdateOrganizationDocument,
} from "../generated/graphql.ts";
import { ACME_READONLY, type GraphQLResponse, type Harness, startHarness } from "./harness.ts";
import {
  assignAnswer,
  CREATE_AGENT_STATUS,
  DELETE_STATUS,
  retryAnswer,
  sandboxErrorCode,
} from "./sandbox-answers.ts";

// Every test writes: each gets its own freshly seeded sandbox.
let harness: Harness;
beforeEach(async () => {
  harness = await startHarness({ sandbox: { callIntervalMs: 3_600_000 } });
});
afterEach(() => harness.close());

/** What reached the sandbox: "METHOD /path", the parsed JSON body, and the status answered. */
function upstreamCalls(): Array<[string, unknown, number]> {
  const calls = harness.sandbox.requests.map((request): [string, unknown, number] => [
    `${request.method} ${request.url}`,
    request.body,
    request.status,
  ]);
  harness.sandbox.clearRequests();
  return calls;
}

/** The error list reduced to what the contract fixes: path and `extensions.code`. */
function errorCodes(response: GraphQLResponse<unknown>) {
  return response.body.errors?.map((error) => [error.path, error.extensions?.code]);
}

const ACME_ORGANIZATION = {
  name: "Acme Health",
  description: "Family clinics with same-day appointments.",
  url: "https://acme-health.example",
  industry: "Healthcare",
  country: "US",
  city: "Boston",
  telephone: "+16175550100",
  email: "hello@acme-health.example",
  timezone: "America/New_York",
};

describe("updateOrganization", () => {
  it("PATCHes exactly the fields the client gave", async () => {
    const response = await harness.graphql(UpdateOrganizationDocument, {
      input: { city: "Cambridge", telephone: "+16175550199" },
    });

    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({
      updateOrganization: {
        organization: { ...ACME_ORGANIZATION, city: "Cambridge", telephone: "+16175550199" },
      },
    });
    expect(upstreamCalls()).toEqual([
      ["PATCH /v1/organization", { city: "Cambridge", telephone: "+16175550199" }, 200],
    ]);
  });

  it("leaves out an input field whose variable the client did not provide", async () => {
    const response = await harness.graphql(RenameOrganizationDocument, {
      name: "Acme Health Group",
    });

    expect(response.body.data).toEqual({
      updateOrganization: { organization: { name: "Acme Health Group", city: "Boston" } },
    });
    expect(upstreamCalls()).toEqual([
      ["PATCH /v1/organization", { name: "Acme Health Group" }, 200],
    ]);
  });

  it("sends an empty PATCH body for an empty input", async () => {
    const response = await harness.graphql(UpdateOrganizationDocument, { input: {} });

    expect(response.body.data).toEqual({
      updateOrganization: { organization: ACME_ORGANIZATION },
    });
    expect(upstreamCalls()).toEqual([["PATCH /v1/organization", {}, 200]]);
  });
});

describe("an explicit null in a write input", () => {
  const agentId = SEED_IDS.acmeAgent;
  it.each([
    {
      field: "input.city",
      send: () =>
        harness.graphql(UpdateOrganizationDocument, { input: { name: "Acme", city: null } }),
    },
    {
      field: "input.greeting",
      send: () =>
        harness.graphql(UpdateAgentDocument, { id: agentId, input: { name: "R", greeting: null } }),
    },
    {
      field: "input.metadata",
      send: () => harness.graphql(UpdateAgentDocument, { id: agentId, input: { metadata: null } }),
    },
    {
      field: "input.voiceConfigs",
      send: () =>
        harness.graphql(UpdateAgentDocument, { id: agentId, input: { voiceConfigs: null } }),
    },
    {
      field: "input.voiceConfigs[1].label",
      send: () =>
        harness.graphql(UpdateAgentDocument, {
          id: agentId,
          input: {
            voiceConfigs: [
              { voiceId: "voice_ava", language: "en-US" },
              { voiceId: "voice_noah", language: "en-US", label: null },
            ],
          },
        }),
    },
    {
      field: "input.model",
      send: () => harness.graphql(CreateAgentDocument, { input: { name: "Night", model: null } }),
    },
    {
      field: "input.voiceConfigs[0].settings",
      send: () =>
        harness.graphql(CreateAgentDocument, {
          input: {
            name: "Night",
            voiceConfigs: [{ voiceId: "voice_ava", language: "en-US", settings: null }],
          },
        }),
    },
  ])(
    "refuses `$field: null` with BAD_USER_INPUT before any upstream call",
    async ({ field, send }) => {
      const response = await send();

      expect(response.body.data).toBeNull();
      expect(response.body.errors).toHaveLength(1);
      expect(response.body.errors?.[0]).toMatchObject({
        message: `\`${field}\` cannot be null; omit it to leave it unchanged.`,
        extensions: { code: "BAD_USER_INPUT", http: { status: 400 }, field },
      });
      expect(upstreamCalls()).toEqual([]);
    },
  );
});

describe("updateAgent", () => {
  it("PATCHes exactly the fields given, the voice configs whole, and nothing more", async () => {
    const voiceConfigs = [
      { id: "vc_acme_reception_es", voiceId: "voice_lucia", language: "es-ES", isDefault: true },
      { voiceId: "voice_noah", language: "en-US", label: "Noah", settings: { speed: 1.1 } },
    ];
    const response = await harness.graphql(UpdateAgentDocument, {
      id: SEED_IDS.acmeAgent,
      input: { greeting: "Hello from Acme Health.", voiceConfigs },
    });

    expect(response.body.errors).toBeUndefined();
    const expectedConfigs = [
      {
        id: "vc_acme_reception_es",
        voiceId: "voice_lucia",
        language: "es-ES",
        label: "voice_lucia",
        settings: {},
        isDefault: true,
      },
      {
        id: expect.stringMatching(/^vc_/),
        voiceId: "voice_noah",
        language: "en-US",
        label: "Noah",
        settings: { speed: 1.1 },
        isDefault: false,
      },
    ];
    expect(response.body.data).toEqual({
      updateAgent: {
        agent: {
          id: SEED_IDS.acmeAgent,
          name: "Reception",
          greeting: "Hello from Acme Health.",
          voiceConfigs: expectedConfigs,
        },
      },
    });
    expect(response.body.extensions?.cost).toMatchObject({ upstreamCalls: 1 });
    expect(upstreamCalls()).toEqual([
      [
        "PATCH /v1/agents/agt_acme_reception",
        { greeting: "Hello from Acme Health.", voiceConfigs },
        200,
      ],
    ]);

    // The list sent replaced the agent's list: the English config is gone.
    const after = await harness.graphql(AgentWithVoiceConfigsDocument, { id: SEED_IDS.acmeAgent });
    expect(after.body.data?.agent?.voiceConfigs).toEqual(expectedConfigs);
  });

  it("loads `status`, absent from the PATCH answer, with exactly one GET", async () => {
    const response = await harness.graphql(UpdateAgentStatusDocument, {
      id: SEED_IDS.acmeAgentPaused,
      input: { name: "Night scheduler" },
    });

    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({
      updateAgent: {
        agent: { id: SEED_IDS.acmeAgentPaused, name: "Night scheduler", status: "PAUSED" },
      },
    });
    // The static estimate bounds the extra GET.
    expect(response.body.extensions?.cost).toEqual({ estimated: 2, upstreamCalls: 2 });
    expect(upstreamCalls()).toEqual([
      ["PATCH /v1/agents/agt_acme_scheduler", { name: "Night scheduler" }, 200],
      ["GET /v1/agents/agt_acme_scheduler", undefined, 200],
    ]);
  });

  it("answers NOT_FOUND for an unknown agent", async () => {
    const response = await harness.graphql(UpdateAgentDocument, {
      id: "agt_acme_missing",
      input: { greeting: "Hi" },
    });

    expect(response.body.data).toBeNull();
    expect(errorCodes(response)).toEqual([[["updateAgent"], "NOT_FOUND"]]);
    expect(upstreamCalls()).toEqual([
      ["PATCH /v1/agents/agt_acme_missing", { greeting: "Hi" }, 404],
    ]);
  });

  it("refuses an ID of another type with BAD_USER_INPUT before any upstream call", async () => {
    const response = await harness.graphql(UpdateAgentDocument, {
      id: SEED_IDS.acmeCampaignRunning,
      input: { greeting: "Hi" },
    });

    expect(response.body.data).toBeNull();
    expect(errorCodes(response)).toEqual([[["updateAgent"], "BAD_USER_INPUT"]]);
    expect(upstreamCalls()).toEqual([]);
  });
});

describe("createAgent", () => {
  it("POSTs exactly the fields given and answers the created agent without another call", async () => {
    const input = {
      name: "Night shift",
      primaryLanguage: "en-GB",
      supportedLanguages: ["en-GB", "fr-FR"],
      systemPrompt: "You take messages after hours.",
      greeting: "Acme Health, night line.",
      model: "gpt-4o-mini",
      metadata: { shift: "night" },
      voiceConfigs: [{ voiceId: "voice_ava", language: "en-GB", isDefault: true }],
    };

    const response = await harness.graphql(CreateAgentDocument, { input });

    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({
      createAgent: {
        agent: {
          id: expect.stringMatching(/^agt_/),
          name: "Night shift",
          status: "ACTIVE",
          primaryLanguage: "en-GB",
          supportedLanguages: ["en-GB", "fr-FR"],
          systemPrompt: "You take messages after hours.",
          greeting: "Acme Health, night line.",
          model: "gpt-4o-mini",
          metadata: { shift: "night" },
          voiceConfigs: [
            {
              voiceId: "voice_ava",
              language: "en-GB",
              label: "voice_ava",
              settings: {},
              isDefault: true,
            },
          ],
        },
      },
    });
    expect(upstreamCalls()).toEqual([["POST /v1/agents", input, CREATE_AGENT_STATUS]]);
  });

  it("POSTs only the name when only the name is given", async () => {
    const response = await harness.graphql(CreateAgentDocument, { input: { name: "Overflow" } });

    expect(response.body.data?.createAgent.agent).toMatchObject({
      name: "Overflow",
      status: "ACTIVE",
      primaryLanguage: "en-US",
    });
    expect(upstreamCalls()).toEqual([
      ["POST /v1/agents", { name: "Overflow" }, CREATE_AGENT_STATUS],
    ]);
  });

  it("answers CONFLICT for a name already taken", async () => {
    const created = await harness.graphql(CreateAgentDocument, { input: { name: "Night shift" } });
    const createdId = created.body.data?.createAgent.agent.id;
    upstreamCalls();

    const response = await harness.graphql(CreateAgentDocument, {
      input: { name: "  night SHIFT " },
    });

    expect(response.body.data).toBeNull();
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors?.[0]).toMatchObject({
      message: 'An agent named "night SHIFT" already exists.',
      path: ["createAgent"],
      extensions: {
        code: "CONFLICT",
        http: { status: 409 },
        upstream: {
          status: 409,
          code: "CONFLICT",
          details: { field: "name", conflictingId: createdId },
        },
      },
    });
    expect(upstreamCalls()).toEqual([["POST /v1/agents", { name: "  night SHIFT " }, 409]]);
  });
});

describe("assignPhoneNumber", () => {
  it("assigns a free number and answers its ID, the agent (one GET) and the upstream's answer", async () => {
    const input = {
      phoneNumberId: SEED_IDS.acmePhoneNumberUnassigned,
      agentId: SEED_IDS.acmeAgentSimple,
    };

    const response = await harness.graphql(AssignPhoneNumberDocument, { input });

    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({
      assignPhoneNumber: {
        phoneNumberId: SEED_IDS.acmePhoneNumberUnassigned,
        agent: { id: SEED_IDS.acmeAgentSimple, name: "Outreach Agent 004" },
        raw: assignAnswer({
          id: SEED_IDS.acmePhoneNumberUnassigned,
          number: "+16175550204",
          country: "US",
          agentId: SEED_IDS.acmeAgentSimple,
          assignedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        }),
      },
    });
    expect(upstreamCalls()).toEqual([
      ["POST /v1/phone-numbers/assign", input, 200],
      ["GET /v1/agents/agt_acme_004", undefined, 200],
    ]);
  });

  it("answers CONFLICT for a number assigned to another agent, without loading the agent", async () => {
    const input = {
      phoneNumberId: SEED_IDS.acmePhoneNumberAssigned,
      agentId: SEED_IDS.acmeAgentSimple,
    };

    const response = await harness.graphql(AssignPhoneNumberDocument, { input });

    expect(response.body.data).toBeNull();
    expect(errorCodes(response)).toEqual([[["assignPhoneNumber"], "CONFLICT"]]);
    expect(upstreamCalls()).toEqual([["POST /v1/phone-numbers/assign", input, 409]]);
  });

  it("refuses an agent ID of another type before any upstream call", async () => {
    const response = await harness.graphql(AssignPhoneNumberDocument, {
      input: {
        phoneNumberId: SEED_IDS.acmePhoneNumberUnassigned,
        agentId: SEED_IDS.acmeContact,
      },
    });

    expect(response.body.data).toBeNull();
    expect(response.body.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      argument: "input.agentId",
    });
    expect(upstreamCalls()).toEqual([]);
  });
});

describe("deletePropertyDefinition", () => {
  it("answers the deleted ID, then NOT_FOUND when deleting it again", async () => {
    const variables = { id: SEED_IDS.acmeProperty };

    const first = await harness.graphql(DeletePropertyDefinitionDocument, variables);
    const second = await harness.graphql(DeletePropertyDefinitionDocument, variables);

    expect(first.body).toMatchObject({
      data: { deletePropertyDefinition: { deletedId: SEED_IDS.acmeProperty } },
    });
    expect(first.body.errors).toBeUndefined();
    expect(second.body.data).toBeNull();
    expect(second.body.errors?.[0]).toMatchObject({
      message: "Property definition prp_acme_insurance_provider was not found.",
      path: ["deletePropertyDefinition"],
      extensions: { code: "NOT_FOUND", http: { status: 404 }, upstream: { status: 404 } },
    });
    expect(upstreamCalls()).toEqual([
      ["DELETE /v1/properties/prp_acme_insurance_provider", undefined, DELETE_STATUS],
      ["DELETE /v1/properties/prp_acme_insurance_provider", undefined, 404],
    ]);
  });

  it("refuses an ID of another type before any upstream call", async () => {
    const response = await harness.graphql(DeletePropertyDefinitionDocument, {
      id: SEED_IDS.acmeDocument,
    });

    expect(errorCodes(response)).toEqual([[["deletePropertyDefinition"], "BAD_USER_INPUT"]]);
    expect(upstreamCalls()).toEqual([]);
  });
});

describe("deleteCampaign", () => {
  it("answers the deleted ID, after which the campaign is NOT_FOUND", async () => {
    const variables = { id: SEED_IDS.acmeCampaignWithoutFailedRows };

    const response = await harness.graphql(DeleteCampaignDocument, variables);
    const after = await harness.graphql(CampaignRowsDocument, variables);

    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({
      deleteCampaign: { deletedId: SEED_IDS.acmeCampaignWithoutFailedRows },
    });
    expect(after.body.data).toEqual({ campaign: null });
    expect(errorCodes(after)).toEqual([[["campaign"], "NOT_FOUND"]]);
    expect(upstreamCalls()).toEqual([
      ["DELETE /v1/campaigns/cmp_acme_survey", undefined, DELETE_STATUS],
      ["GET /v1/campaigns/cmp_acme_survey", undefined, 404],
    ]);
  });

  it("answers NOT_FOUND for an unknown campaign", async () => {
    const response = await harness.graphql(DeleteCampaignDocument, { id: "cmp_acme_missing" });

    expect(response.body.data).toBeNull();
    expect(response.body.errors?.[0]).toMatchObject({
      message: "Campaign cmp_acme_missing was not found.",
      extensions: { code: "NOT_FOUND", upstream: { status: 404, code: "NOT_FOUND" } },
    });
    expect(upstreamCalls()).toEqual([["DELETE /v1/campaigns/cmp_acme_missing", undefined, 404]]);
  });

  it("answers CONFLICT for a running campaign", async () => {
    const response = await harness.graphql(DeleteCampaignDocument, {
      id: SEED_IDS.acmeCampaignRunning,
    });

    expect(errorCodes(response)).toEqual([[["deleteCampaign"], "CONFLICT"]]);
    expect(upstreamCalls()).toEqual([["DELETE /v1/campaigns/cmp_acme_reminders", undefined, 409]]);
  });
});

describe("retryCampaign", () => {
  it("answers the upstream's answer and the campaign loaded with one GET after the retry", async () => {
    const response = await harness.graphql(RetryCampaignDocument, {
      id: SEED_IDS.acmeCampaignWithFailedRows,
    });

    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({
      retryCampaign: {
        campaign: { id: SEED_IDS.acmeCampaignWithFailedRows, failedRows: 0, status: "RUNNING" },
        raw: retryAnswer(SEED_IDS.acmeCampaignWithFailedRows, 12),
      },
    });
    expect(upstreamCalls()).toEqual([
      ["POST /v1/campaigns/cmp_acme_flu_shots/retry", undefined, 200],
      ["GET /v1/campaigns/cmp_acme_flu_shots", undefined, 200],
    ]);
  });

  it("makes no GET when the campaign is not selected", async () => {
    const response = await harness.graphql(RetryCampaignRawDocument, {
      id: SEED_IDS.acmeCampaignWithFailedRows,
    });

    expect(response.body.data?.retryCampaign.raw).toEqual(
      retryAnswer(SEED_IDS.acmeCampaignWithFailedRows, 12),
    );
    expect(upstreamCalls()).toEqual([
      ["POST /v1/campaigns/cmp_acme_flu_shots/retry", undefined, 200],
    ]);
  });

  it("answers `raw: {}` when the upstream's answer has no body", async () => {
    harness.sandbox.injectFault({
      method: "POST",
      path: "/v1/campaigns/cmp_acme_flu_shots/retry",
      status: 204,
    });

    const response = await harness.graphql(RetryCampaignRawDocument, {
      id: SEED_IDS.acmeCampaignWithFailedRows,
    });

    expect(response.body.errors).toBeUndefined();
    expect(response.body.data).toEqual({ retryCampaign: { raw: {} } });
  });

  it("answers CONFLICT for a campaign without failed rows", async () => {
    const response = await harness.graphql(RetryCampaignDocument, {
      id: SEED_IDS.acmeCampaignWithoutFailedRows,
    });

    expect(response.body.data).toBeNull();
    expect(errorCodes(response)).toEqual([[["retryCampaign"], "CONFLICT"]]);
    expect(upstreamCalls()).toEqual([["POST /v1/campaigns/cmp_acme_survey/retry", undefined, 409]]);
  });
});

describe("a read-only key", () => {
  const readOnly = { authorization: ACME_READONLY };

  /** Each write, as the read-only key sends it, and how Acme's full key sees that it changed nothing. */
  it.each([
    {
      mutation: "updateOrganization",
      send: () =>
        harness.graphql(UpdateOrganizationDocument, { input: { city: "Salem" } }, readOnly),
      request: ["PATCH /v1/organization", { city: "Salem" }, 403],
      unchanged: async () => {
        const response = await harness.graphql(OrganizationDocument);
        expect(response.body.data?.organization).toMatchObject(ACME_ORGANIZATION);
      },
    },
    {
      mutation: "createAgent",
      send: () => harness.graphql(CreateAgentDocument, { input: { name: "Intruder" } }, readOnly),
      request: ["POST /v1/agents", { name: "Intruder" }, 403],
      unchanged: async () => {
        // The name is still free.
        const response = await harness.graphql(CreateAgentDocument, {
          input: { name: "Intruder" },
        });
        expect(response.body.errors).toBeUndefined();
      },
    },
    {
      mutation: "updateAgent",
      send: () =>
        harness.graphql(
          UpdateAgentDocument,
          { id: SEED_IDS.acmeAgent, input: { greeting: "Gotcha" } },
          readOnly,
        ),
      request: ["PATCH /v1/agents/agt_acme_reception", { greeting: "Gotcha" }, 403],
      unchanged: async () => {
        const response = await harness.graphql(AgentWithVoiceConfigsDocument, {
          id: SEED_IDS.acmeAgent,
        });
        expect(response.body.data?.agent?.greeting).toBe(
          "Thank you for calling Acme Health, how can I help?",
        );
      },
    },
    {
      mutation: "assignPhoneNumber",
      send: () =>
        harness.graphql(
          AssignPhoneNumberDocument,
          {
            input: {
              phoneNumberId: SEED_IDS.acmePhoneNumberUnassigned,
              agentId: SEED_IDS.acmeAgentSimple,
            },
          },
          readOnly,
        ),
      request: [
        "POST /v1/phone-numbers/assign",
        { phoneNumberId: SEED_IDS.acmePhoneNumberUnassigned, agentId: SEED_IDS.acmeAgentSimple },
        403,
      ],
      unchanged: async () => {
        // Still free: another agent can take it.
        const response = await harness.graphql(AssignPhoneNumberDocument, {
          input: {
            phoneNumberId: SEED_IDS.acmePhoneNumberUnassigned,
            agentId: SEED_IDS.acmeAgentPaused,
          },
        });
        expect(response.body.errors).toBeUndefined();
      },
    },
    {
      mutation: "deletePropertyDefinition",
      send: () =>
        harness.graphql(DeletePropertyDefinitionDocument, { id: SEED_IDS.acmeProperty }, readOnly),
      request: ["DELETE /v1/properties/prp_acme_insurance_provider", undefined, 403],
      unchanged: async () => {
        // Still there to delete.
        const response = await harness.graphql(DeletePropertyDefinitionDocument, {
          id: SEED_IDS.acmeProperty,
        });
        expect(response.body.errors).toBeUndefined();
      },
    },
    {
      mutation: "deleteCampaign",
      send: () =>
        harness.graphql(
          DeleteCampaignDocument,
          { id: SEED_IDS.acmeCampaignWithoutFailedRows },
          readOnly,
        ),
      request: ["DELETE /v1/campaigns/cmp_acme_survey", undefined, 403],
      unchanged: async () => {
        const response = await harness.graphql(CampaignRowsDocument, {
          id: SEED_IDS.acmeCampaignWithoutFailedRows,
        });
        expect(response.body.data?.campaign).toEqual({
          id: SEED_IDS.acmeCampaignWithoutFailedRows,
          status: "COMPLETED",
          failedRows: 0,
        });
      },
    },
    {
      mutation: "retryCampaign",
      send: () =>
        harness.graphql(
          RetryCampaignDocument,
          { id: SEED_IDS.acmeCampaignWithFailedRows },
          readOnly,
        ),
      request: ["POST /v1/campaigns/cmp_acme_flu_shots/retry", undefined, 403],
      unchanged: async () => {
        const response = await harness.graphql(CampaignRowsDocument, {
          id: SEED_IDS.acmeCampaignWithFailedRows,
        });
        expect(response.body.data?.campaign).toEqual({
          id: SEED_IDS.acmeCampaignWithFailedRows,
          status: "COMPLETED",
          failedRows: 12,
        });
      },
    },
  ])(
    "gets FORBIDDEN from $mutation and changes nothing",
    async ({ mutation, send, request, unchanged }) => {
      const response = await send();

      expect(response.body.data).toBeNull();
      expect(response.body.errors).toHaveLength(1);
      expect(response.body.errors?.[0]).toMatchObject({
        path: [mutation],
        extensions: {
          code: "FORBIDDEN",
          http: { status: 403 },
          upstream: { status: 403, code: sandboxErrorCode("FORBIDDEN") },
        },
      });
      expect(upstreamCalls()).toEqual([request]);
      await unchanged();
    },
  );
});
