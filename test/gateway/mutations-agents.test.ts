import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import {
  AgentWithVoiceConfigsDocument,
  AssignPhoneNumberDocument,
  CreateAgentDocument,
  UpdateAgentDocument,
  UpdateAgentStatusDocument,
} from "../generated/graphql.ts";
import { harness } from "./file-harness.ts";
import { errorCodes, seededHarnessPerTest, upstreamCalls } from "./mutations-support.ts";
import { assignAnswer, CREATE_AGENT_STATUS } from "./sandbox-answers.ts";

seededHarnessPerTest();

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
    // The estimate bounds a GET for `status` too (the update's answer omits it); none was made.
    expect(response.body.extensions?.cost).toEqual({ estimated: 2, upstreamCalls: 1 });
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

  it("reads the agent afresh after each update, through its conversations' agent too", async () => {
    const id = SEED_IDS.acmeAgentInactive;
    const seen = "agent { status conversations(first: 1) { nodes { agent { name } } } }";
    const response = await harness.graphql(`mutation {
      one: updateAgent(id: "${id}", input: { name: "Billing one" }) { ${seen} }
      two: updateAgent(id: "${id}", input: { name: "Billing two" }) { ${seen} }
    }`);

    expect(response.body.errors).toBeUndefined();
    const named = (name: string) => ({
      status: "INACTIVE",
      conversations: { nodes: [{ agent: { name } }] },
    });
    expect(response.body.data).toEqual({
      one: { agent: named("Billing one") },
      two: { agent: named("Billing two") },
    });
    expect(
      upstreamCalls()
        .map(([call]) => call)
        .filter((call) => call.startsWith("GET /v1/agents/")),
    ).toEqual([`GET /v1/agents/${id}`, `GET /v1/agents/${id}`]);
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

    expect(response.status).toBe(400);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      http: { status: 400 },
      argument: "id",
    });
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

    expect(response.status).toBe(400);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      http: { status: 400 },
      argument: "input.agentId",
    });
    expect(upstreamCalls()).toEqual([]);
  });
});
