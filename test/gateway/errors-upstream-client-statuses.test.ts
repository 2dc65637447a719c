import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { MISSING_AGENT, seedError, UPSTREAM_REQUEST_ID } from "./errors-support.ts";
import { harness, oneHarnessPerFile } from "./file-harness.ts";
import { ACME_READONLY, GATEWAY_REQUEST_ID } from "./harness.ts";
import { INVALID_KEY_DETAILS, READ_ONLY_DETAILS, sandboxErrorCode } from "./sandbox-answers.ts";

oneHarnessPerFile();

describe("upstream statuses become catalogue codes (contract §5)", () => {
  it("maps 400 to BAD_USER_INPUT with the upstream's facts", async () => {
    harness.sandbox.injectFault({
      method: "GET",
      path: "/v1/organization",
      status: 400,
      body: seedError("INVALID_PARAMETER", "Query parameter `x` is not known.", { parameter: "x" }),
    });

    const response = await harness.graphql("{ organization { name } }");

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: { organization: null },
      errors: [
        {
          message: "Query parameter `x` is not known.",
          locations: [{ line: 1, column: 3 }],
          path: ["organization"],
          extensions: {
            code: "BAD_USER_INPUT",
            requestId: GATEWAY_REQUEST_ID,
            upstream: {
              status: 400,
              code: "INVALID_PARAMETER",
              message: "Query parameter `x` is not known.",
              requestId: "req_fault",
              details: { parameter: "x" },
            },
          },
        },
      ],
      extensions: { cost: { estimated: 1, upstreamCalls: 1 } },
    });
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
  });

  it("maps 401 (an unknown key) to UNAUTHENTICATED", async () => {
    const response = await harness.graphql("{ organization { name } }", undefined, {
      authorization: "Bearer sk_test_nobody",
    });

    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ organization: null });
    expect(response.body.errors).toEqual([
      {
        message: "Invalid API key or malformed Authorization header.",
        locations: [{ line: 1, column: 3 }],
        path: ["organization"],
        extensions: {
          code: "UNAUTHENTICATED",
          requestId: GATEWAY_REQUEST_ID,
          upstream: {
            status: 401,
            code: sandboxErrorCode("UNAUTHORIZED"),
            message: "Invalid API key or malformed Authorization header.",
            requestId: UPSTREAM_REQUEST_ID,
            details: INVALID_KEY_DETAILS,
          },
        },
      },
    ]);
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
  });

  it("maps 403 (a read-only key writing) to FORBIDDEN", async () => {
    const response = await harness.graphql(
      'mutation { updateOrganization(input: { city: "Springfield" }) { organization { city } } }',
      undefined,
      { authorization: ACME_READONLY },
    );

    expect(response.status).toBe(200);
    expect(response.body.data).toBeNull();
    expect(response.body.errors).toEqual([
      {
        message: "This API key is read-only; it cannot change data.",
        locations: [{ line: 1, column: 12 }],
        path: ["updateOrganization"],
        extensions: {
          code: "FORBIDDEN",
          requestId: GATEWAY_REQUEST_ID,
          upstream: {
            status: 403,
            code: sandboxErrorCode("FORBIDDEN"),
            message: "This API key is read-only; it cannot change data.",
            requestId: UPSTREAM_REQUEST_ID,
            details: READ_ONLY_DETAILS,
          },
        },
      },
    ]);
    expect(harness.takeUpstreamRequests()).toEqual(["PATCH /v1/organization"]);
  });

  it("maps 404 to NOT_FOUND: the nullable field is null beside the error, the rest answers", async () => {
    const response = await harness.graphql(MISSING_AGENT.query);

    expect(response.status).toBe(200);
    expect(response.body.data).toEqual(MISSING_AGENT.data);
    expect(response.body.errors).toEqual(MISSING_AGENT.errors);
    expect(harness.takeUpstreamRequests().sort()).toEqual(MISSING_AGENT.calls);
  });

  it("passes the upstream's requestId of a 404 on to the client unchanged", async () => {
    harness.sandbox.injectFault({
      path: "/v1/documents/doc_acme_gone",
      status: 404,
      body: seedError("NOT_FOUND", "Document doc_acme_gone was not found."),
    });

    const response = await harness.graphql('{ document(id: "doc_acme_gone") { name } }');

    expect(response.body.data).toEqual({ document: null });
    expect(response.body.errors?.[0]?.extensions).toMatchObject({
      code: "NOT_FOUND",
      upstream: { status: 404, code: "NOT_FOUND", requestId: "req_fault", details: null },
    });
  });

  it("maps 409 (retrying a campaign without failed rows) to CONFLICT", async () => {
    const response = await harness.graphql(
      `mutation { retryCampaign(id: "${SEED_IDS.acmeCampaignWithoutFailedRows}") { raw } }`,
    );

    expect(response.status).toBe(200);
    expect(response.body.data).toBeNull();
    expect(response.body.errors).toEqual([
      {
        message: "The campaign has no failed rows to retry.",
        locations: [{ line: 1, column: 12 }],
        path: ["retryCampaign"],
        extensions: {
          code: "CONFLICT",
          requestId: GATEWAY_REQUEST_ID,
          upstream: {
            status: 409,
            code: "CONFLICT",
            message: "The campaign has no failed rows to retry.",
            requestId: UPSTREAM_REQUEST_ID,
            details: { id: SEED_IDS.acmeCampaignWithoutFailedRows, failedRows: 0 },
          },
        },
      },
    ]);
    expect(harness.takeUpstreamRequests()).toEqual([
      `POST /v1/campaigns/${SEED_IDS.acmeCampaignWithoutFailedRows}/retry`,
    ]);
  });

  it("maps 422 (an organization email that is not one) to VALIDATION_FAILED", async () => {
    const response = await harness.graphql(
      'mutation { updateOrganization(input: { email: "not-an-email" }) { organization { email } } }',
    );

    expect(response.status).toBe(200);
    expect(response.body.data).toBeNull();
    expect(response.body.errors).toEqual([
      {
        message: "Body field `email` must be an email address.",
        locations: [{ line: 1, column: 12 }],
        path: ["updateOrganization"],
        extensions: {
          code: "VALIDATION_FAILED",
          requestId: GATEWAY_REQUEST_ID,
          upstream: {
            status: 422,
            code: sandboxErrorCode("VALIDATION_ERROR"),
            message: "Body field `email` must be an email address.",
            requestId: UPSTREAM_REQUEST_ID,
            details: { location: "body", field: "email", reason: "must be an email address" },
          },
        },
      },
    ]);
    expect(harness.sandbox.requests.map((request) => request.body)).toEqual([
      { email: "not-an-email" },
    ]);
    expect(harness.takeUpstreamRequests()).toEqual(["PATCH /v1/organization"]);
  });
});
