import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import {
  AgentWithVoiceConfigsDocument,
  AssignPhoneNumberDocument,
  CampaignRowsDocument,
  CreateAgentDocument,
  DeleteCampaignDocument,
  DeletePropertyDefinitionDocument,
  OrganizationDocument,
  RetryCampaignDocument,
  UpdateAgentDocument,
  UpdateOrganizationDocument,
} from "../generated/graphql.ts";
import { harness } from "./file-harness.ts";
import { ACME_ORGANIZATION, ACME_READONLY } from "./harness.ts";
import { seededHarnessPerTest, upstreamCalls } from "./mutations-support.ts";
import { sandboxErrorCode } from "./sandbox-answers.ts";

seededHarnessPerTest();

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
          upstream: { status: 403, code: sandboxErrorCode("FORBIDDEN") },
        },
      });
      expect(upstreamCalls()).toEqual([request]);
      await unchanged();
    },
  );
});
