import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import {
  CreateAgentDocument,
  RenameOrganizationDocument,
  UpdateAgentDocument,
  UpdateOrganizationDocument,
} from "../generated/graphql.ts";
import { harness } from "./file-harness.ts";
import { ACME_ORGANIZATION } from "./harness.ts";
import { seededHarnessPerTest, upstreamCalls } from "./mutations-support.ts";

seededHarnessPerTest();

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
      field: "input.telephone",
      send: () =>
        harness.graphql(
          "mutation { updateOrganization(input: { telephone: null }) { organization { name } } }",
        ),
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
    "refuses `$field: null` with BAD_USER_INPUT, HTTP 400, before any upstream call",
    async ({ field, send }) => {
      const response = await send();

      // Refused for the whole operation before it runs (docs/errors.md): HTTP 400.
      expect(response.status).toBe(400);
      expect(response.body.data).toBeUndefined();
      expect(response.body.errors).toHaveLength(1);
      expect(response.body.errors?.[0]).toMatchObject({
        message: `\`${field}\` cannot be null; omit it to leave it unchanged.`,
        extensions: { code: "BAD_USER_INPUT", http: { status: 400 }, argument: field },
      });
      expect(upstreamCalls()).toEqual([]);
    },
  );
});
