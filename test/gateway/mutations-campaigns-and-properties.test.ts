import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import {
  CampaignRowsDocument,
  DeleteCampaignDocument,
  DeletePropertyDefinitionDocument,
  RetryCampaignDocument,
  RetryCampaignRawDocument,
} from "../generated/graphql.ts";
import { harness } from "./file-harness.ts";
import { errorCodes, seededHarnessPerTest, upstreamCalls } from "./mutations-support.ts";
import { DELETE_STATUS, retryAnswer } from "./sandbox-answers.ts";

seededHarnessPerTest();

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
      extensions: { code: "NOT_FOUND", upstream: { status: 404 } },
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

    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      http: { status: 400 },
      argument: "id",
    });
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
