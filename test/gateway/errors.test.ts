import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS, SEED_IDS } from "../../src/sandbox/seed-data.ts";
import {
  closedPortUrl,
  type RecordingUpstream,
  sendJson,
  startRecordingUpstream,
} from "../upstream/recording-upstream.ts";
import { ACME_READONLY, type Harness, startHarness } from "./harness.ts";
import { INVALID_KEY_DETAILS, READ_ONLY_DETAILS, sandboxErrorCode } from "./sandbox-answers.ts";

const REQUEST_ID = expect.stringMatching(/^req_[a-z0-9]+$/);

const UNAVAILABLE = "The upstream API is unavailable; try again later.";

/** The seed's error body, as an injected fault answers it. */
function seedError(code: string, message: string, details?: Record<string, unknown>) {
  return { error: { code, message, ...(details ? { details } : {}) }, requestId: "req_fault" };
}

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());
afterEach(() => {
  harness.sandbox.clearFaults();
  harness.takeUpstreamRequests();
});

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
            http: { status: 400 },
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
          http: { status: 401 },
          upstream: {
            status: 401,
            code: sandboxErrorCode("UNAUTHORIZED"),
            message: "Invalid API key or malformed Authorization header.",
            requestId: REQUEST_ID,
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
          http: { status: 403 },
          upstream: {
            status: 403,
            code: sandboxErrorCode("FORBIDDEN"),
            message: "This API key is read-only; it cannot change data.",
            requestId: REQUEST_ID,
            details: READ_ONLY_DETAILS,
          },
        },
      },
    ]);
    expect(harness.takeUpstreamRequests()).toEqual(["PATCH /v1/organization"]);
  });

  it("maps 404 to NOT_FOUND: the nullable field is null beside the error, the rest answers", async () => {
    const response = await harness.graphql(
      '{ agent(id: "agt_acme_missing") { id name } organization { name } }',
    );

    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ agent: null, organization: { name: "Acme Health" } });
    expect(response.body.errors).toEqual([
      {
        message: "Agent agt_acme_missing was not found.",
        locations: [{ line: 1, column: 3 }],
        path: ["agent"],
        extensions: {
          code: "NOT_FOUND",
          http: { status: 404 },
          upstream: {
            status: 404,
            code: "NOT_FOUND",
            message: "Agent agt_acme_missing was not found.",
            requestId: REQUEST_ID,
            details: { id: "agt_acme_missing" },
          },
        },
      },
    ]);
    expect(harness.takeUpstreamRequests().sort()).toEqual([
      "GET /v1/agents/agt_acme_missing",
      "GET /v1/organization",
    ]);
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
          http: { status: 409 },
          upstream: {
            status: 409,
            code: "CONFLICT",
            message: "The campaign has no failed rows to retry.",
            requestId: REQUEST_ID,
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
          http: { status: 422 },
          upstream: {
            status: 422,
            code: sandboxErrorCode("VALIDATION_ERROR"),
            message: "Body field `email` must be an email address.",
            requestId: REQUEST_ID,
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

  it("maps 429 to RATE_LIMITED with retryAfter: whole seconds until X-RateLimit-Reset", async () => {
    // Its own gateway: the key is remembered as rate-limited until the reset (rate-limit memory).
    const limited = await startHarness();
    try {
      const reset = Math.ceil(Date.now() / 1000) + 30;
      const secondsLeft = () => Math.ceil(reset - Date.now() / 1000);
      limited.sandbox.injectFault({
        path: "/v1/organization",
        status: 429,
        headers: {
          "X-RateLimit-Limit": "100",
          "X-RateLimit-Remaining": "0",
          "X-RateLimit-Reset": String(reset),
        },
      });

      const most = secondsLeft();
      const response = await limited.graphql("{ organization { name } }");
      const least = secondsLeft();

      const error = response.body.errors?.[0];
      expect(error?.extensions).toEqual({
        code: "RATE_LIMITED",
        http: { status: 429 },
        upstream: {
          status: 429,
          code: sandboxErrorCode("RATE_LIMITED"),
          message: "Injected fault: HTTP 429.",
          requestId: REQUEST_ID,
          details: null,
        },
        retryAfter: expect.any(Number),
      });
      const retryAfter = error?.extensions.retryAfter as number;
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(least);
      expect(retryAfter).toBeLessThanOrEqual(most);
      expect(limited.takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
    } finally {
      await limited.close();
    }
  });

  it("maps a 500 to UPSTREAM_ERROR, keeping the upstream's own message in `upstream`", async () => {
    harness.sandbox.injectFault({ path: "/v1/organization", status: 500 });

    const response = await harness.graphql("{ organization { name } }");

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: { organization: null },
      errors: [
        {
          message: "The upstream API failed (HTTP 500).",
          locations: [{ line: 1, column: 3 }],
          path: ["organization"],
          extensions: {
            code: "UPSTREAM_ERROR",
            http: { status: 502 },
            upstream: {
              status: 500,
              code: sandboxErrorCode("INTERNAL_ERROR"),
              message: "Injected fault: HTTP 500.",
              requestId: REQUEST_ID,
              details: null,
            },
          },
        },
      ],
      extensions: { cost: { estimated: 1, upstreamCalls: 1 } },
    });
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
  });

  it.each([
    [502, "BAD_GATEWAY"],
    [503, "SERVICE_UNAVAILABLE"],
    [504, "GATEWAY_TIMEOUT"],
  ] as const)(
    "maps a %i that outlasts the GET's retries to UPSTREAM_ERROR",
    async (status, sandboxCode) => {
      const code = sandboxErrorCode(sandboxCode);
      harness.sandbox.injectFault({ path: "/v1/organization", status, times: 3 });

      const response = await harness.graphql("{ organization { name } }");

      expect(response.body.errors?.[0]?.message).toBe(`The upstream API failed (HTTP ${status}).`);
      expect(response.body.errors?.[0]?.extensions).toMatchObject({
        code: "UPSTREAM_ERROR",
        http: { status: 502 },
        upstream: { status, code },
      });
      expect(harness.takeUpstreamRequests()).toEqual([
        "GET /v1/organization",
        "GET /v1/organization",
        "GET /v1/organization",
      ]);
    },
  );

  it("maps a redirect to UPSTREAM_ERROR without following it", async () => {
    harness.sandbox.injectFault({
      path: "/v1/organization",
      status: 302,
      body: "<a href='/elsewhere'>moved</a>",
      headers: { Location: "/elsewhere" },
    });

    const response = await harness.graphql("{ organization { name } }");

    expect(response.body.errors?.[0]?.message).toBe("The upstream API failed (HTTP 302).");
    expect(response.body.errors?.[0]?.extensions).toMatchObject({
      code: "UPSTREAM_ERROR",
      upstream: { status: 302, code: "HTTP_302", message: "Found" },
    });
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
  });
});

describe("an unreachable or unusable upstream is UPSTREAM_UNAVAILABLE", () => {
  function unavailable(reason: string) {
    return {
      message: UNAVAILABLE,
      locations: [{ line: 1, column: 3 }],
      path: ["organization"],
      extensions: { code: "UPSTREAM_UNAVAILABLE", http: { status: 503 }, reason },
    };
  }

  it("when the upstream does not answer within the timeout", async () => {
    const slow = await startHarness({ upstream: { timeoutMs: 200 } });
    try {
      slow.sandbox.injectFault({ path: "/v1/organization", hang: true });

      const response = await slow.graphql("{ organization { name } }");

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ organization: null });
      expect(response.body.errors).toEqual([unavailable("TIMEOUT")]);
      expect(slow.takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
    } finally {
      await slow.close();
    }
  });

  it("when every attempt's connection is reset (a GET is tried three times)", async () => {
    harness.sandbox.injectFault({ path: "/v1/organization", destroy: true, times: 3 });

    const response = await harness.graphql("{ organization { name } }");

    expect(response.body.errors).toEqual([unavailable("CONNECTION_RESET")]);
    expect(harness.takeUpstreamRequests()).toEqual([
      "GET /v1/organization",
      "GET /v1/organization",
      "GET /v1/organization",
    ]);
  });

  it("when a 200's body is not JSON", async () => {
    harness.sandbox.injectFault({ path: "/v1/organization", status: 200, body: "<html>ok</html>" });

    const response = await harness.graphql("{ organization { name } }");

    expect(response.body.errors).toEqual([unavailable("INVALID_RESPONSE")]);
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
  });

  it("when an error status comes with a body that is not JSON (a proxy's 502 page)", async () => {
    harness.sandbox.injectFault({
      path: "/v1/organization",
      status: 502,
      body: "<html>Bad Gateway</html>",
      times: 3,
    });

    const response = await harness.graphql("{ organization { name } }");

    expect(response.body.errors).toEqual([unavailable("INVALID_RESPONSE")]);
    expect(harness.takeUpstreamRequests()).toEqual([
      "GET /v1/organization",
      "GET /v1/organization",
      "GET /v1/organization",
    ]);
  });

  it("when the connection is refused", async () => {
    const refused = await startHarness({ upstream: { baseUrl: await closedPortUrl() } });
    try {
      const response = await refused.graphql("{ organization { name } }");

      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        data: { organization: null },
        errors: [unavailable("CONNECTION_REFUSED")],
        extensions: { cost: { estimated: 1, upstreamCalls: 1 } },
      });
      expect(refused.takeUpstreamRequests()).toEqual([]);
    } finally {
      await refused.close();
    }
  });
});

describe("what the gateway decides without the upstream", () => {
  it("refuses an ID with another resource's prefix with BAD_USER_INPUT and no upstream call", async () => {
    const response = await harness.graphql(`{ agent(id: "${SEED_IDS.acmeContact}") { id } }`);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: { agent: null },
      errors: [
        {
          message: '`id` must be an agent ID starting with "agt_", got "cnt_acme_maria".',
          locations: [{ line: 1, column: 3 }],
          path: ["agent"],
          extensions: { code: "BAD_USER_INPUT", http: { status: 400 }, argument: "id" },
        },
      ],
      extensions: { cost: { estimated: 1, upstreamCalls: 0 } },
    });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("refuses `node` with an ID of no known prefix with BAD_USER_INPUT and no upstream call", async () => {
    const response = await harness.graphql('{ node(id: "usr_1") { id } }');

    expect(response.body.data).toEqual({ node: null });
    expect(response.body.errors?.[0]?.extensions).toEqual({
      code: "BAD_USER_INPUT",
      http: { status: 400 },
      argument: "id",
    });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("answers an operation without Authorization with UNAUTHENTICATED, HTTP 401, no upstream call", async () => {
    const response = await harness.graphql("{ organization { name } }", undefined, {
      authorization: null,
    });

    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      errors: [
        {
          message: "An API key is required: send the header `Authorization: Bearer <API key>`.",
          extensions: { code: "UNAUTHENTICATED", http: { status: 401 } },
        },
      ],
      extensions: { cost: { estimated: 1, upstreamCalls: 0 } },
    });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it.each([
    ["{ __schema { queryType { name } } }", { __schema: { queryType: { name: "Query" } } }],
    ["{ __typename }", { __typename: "Query" }],
  ])("serves introspection %s without a key or an upstream call", async (query, data) => {
    const response = await harness.graphql(query, undefined, { authorization: null });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data,
      extensions: { cost: { estimated: 0, upstreamCalls: 0 } },
    });
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });
});

/** A yoga logger keeping every line it is given, at every level. */
function capturingLogger() {
  const lines: string[] = [];
  const at =
    (level: string) =>
    (...args: unknown[]) => {
      const text = args.map((arg) => (typeof arg === "string" ? arg : inspect(arg, { depth: 10 })));
      lines.push(`${level}: ${text.join(" ")}`);
    };
  return {
    lines,
    logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") },
  };
}

describe("unexpected errors and secrets", () => {
  let upstream: RecordingUpstream | undefined;
  let echoing: Harness | undefined;
  afterEach(async () => {
    await echoing?.close();
    await upstream?.close();
    echoing = undefined;
    upstream = undefined;
  });

  it("masks an unexpected error as 'Unexpected error.' with no internal message or stack", async () => {
    // An agent list item without `primaryLanguage` (non-null in the schema) fails inside graphql-js.
    upstream = await startRecordingUpstream((_request, res) =>
      sendJson(res, 200, { items: [{ id: "agt_1" }], total: 1, page: 1, pageSize: 20 }),
    );
    const { lines, logger } = capturingLogger();
    echoing = await startHarness({
      upstream: { baseUrl: upstream.url },
      gateway: { logging: logger },
    });

    const response = await echoing.graphql("{ agents { nodes { id primaryLanguage } } }");

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: { agents: null },
      errors: [
        {
          message: "Unexpected error.",
          locations: [{ line: 1, column: 23 }],
          path: ["agents", "nodes", 0, "primaryLanguage"],
          extensions: { code: "INTERNAL_SERVER_ERROR" },
        },
      ],
      extensions: { cost: { estimated: expect.any(Number), upstreamCalls: 1 } },
    });
    expect(JSON.stringify(response.body)).not.toMatch(
      /non-nullable|Agent\.primaryLanguage|stack|\.ts:/,
    );
    expect(upstream.requests.map((request) => request.url)).toEqual([
      "/v1/agents?page=1&pageSize=21",
    ]);
    // The operator still sees what happened.
    expect(lines.some((line) => line.includes("non-nullable field Agent.primaryLanguage"))).toBe(
      true,
    );
  });

  it("never shows the API key in a response or a log line, even when the upstream echoes it", async () => {
    const token = "sk_live_0123456789abcdef";
    const authorization = `Bearer ${token}`;
    upstream = await startRecordingUpstream((request, res) => {
      const echoed = request.headers.authorization ?? "";
      const echo = { "x-echo": echoed, "x-request-id": echoed };
      if (request.url.startsWith("/v1/agents/")) {
        return sendJson(
          res,
          404,
          {
            error: {
              code: "NOT_FOUND",
              message: `No agent for ${echoed}`,
              details: { authorization: echoed, [token]: token },
            },
            requestId: `req_${token}`,
          },
          echo,
        );
      }
      if (request.url.startsWith("/v1/documents/")) {
        // No requestId in the body: the gateway falls back to X-Request-Id, which echoes too.
        return sendJson(
          res,
          403,
          { error: { code: token, message: `Key ${token} may not` } },
          echo,
        );
      }
      return sendJson(res, 500, { error: { code: "INTERNAL", message: `boom ${echoed}` } }, echo);
    });
    const { lines, logger } = capturingLogger();
    echoing = await startHarness({
      upstream: { baseUrl: upstream.url, maxRetries: 0 },
      gateway: { logging: logger },
    });

    const response = await echoing.graphql(
      '{ agent(id: "agt_1") { id } document(id: "doc_1") { id } campaign(id: "cmp_1") { id } }',
      undefined,
      { authorization },
    );

    // The upstream did receive the key: the redaction below is the gateway's doing.
    expect(upstream.requests.map((request) => request.headers.authorization)).toEqual([
      authorization,
      authorization,
      authorization,
    ]);
    const byPath = Object.fromEntries(
      (response.body.errors ?? []).map((error) => [error.path?.[0], error.extensions]),
    );
    expect(byPath).toEqual({
      agent: {
        code: "NOT_FOUND",
        http: { status: 404 },
        upstream: {
          status: 404,
          code: "NOT_FOUND",
          message: "No agent for [REDACTED]",
          requestId: "req_[REDACTED]",
          details: { authorization: "[REDACTED]", "[REDACTED]": "[REDACTED]" },
        },
      },
      document: {
        code: "FORBIDDEN",
        http: { status: 403 },
        upstream: {
          status: 403,
          code: "[REDACTED]",
          message: "Key [REDACTED] may not",
          requestId: "[REDACTED]",
          details: null,
        },
      },
      campaign: {
        code: "UPSTREAM_ERROR",
        http: { status: 502 },
        upstream: {
          status: 500,
          code: "INTERNAL",
          message: "boom [REDACTED]",
          requestId: "[REDACTED]",
          details: null,
        },
      },
    });
    expect(JSON.stringify(response.body)).not.toContain(token);
    for (const [name, value] of response.headers) {
      expect(`${name}: ${value}`).not.toContain(token);
    }
    expect(lines.filter((line) => line.startsWith("error:"))).toHaveLength(3);
    expect(lines.filter((line) => line.includes(token))).toEqual([]);
  });

  it("never shows a demo key either when the sandbox rejects a malformed header", async () => {
    const { lines, logger } = capturingLogger();
    echoing = await startHarness({ gateway: { logging: logger } });

    const response = await echoing.graphql("{ organization { name } }", undefined, {
      authorization: `Token ${DEMO_KEYS.acme}`,
    });

    expect(response.body.errors?.[0]?.extensions.code).toBe("UNAUTHENTICATED");
    expect(JSON.stringify(response.body)).not.toContain(DEMO_KEYS.acme);
    expect(lines.filter((line) => line.includes(DEMO_KEYS.acme))).toEqual([]);
  });
});

describe("variables that do not fit their types", () => {
  it("are BAD_USER_INPUT with HTTP 400 and no upstream call", async () => {
    const response = await harness.graphql(
      "query ($f: ConversationFilter) { conversations(filter: $f) { totalCount } }",
      { f: { startDate: "yesterday" } },
    );
    expect(response.status).toBe(400);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors).toEqual([
      {
        message: expect.stringContaining('Variable "$f" got invalid value "yesterday"'),
        locations: [{ line: 1, column: 8 }],
        extensions: { code: "BAD_USER_INPUT", http: { status: 400 } },
      },
    ]);
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });
});

describe("IDs too long to be real", () => {
  it("are BAD_USER_INPUT before any upstream call, wherever an ID is taken", async () => {
    const long = `agt_${"x".repeat(300)}`;
    const response = await harness.graphql(
      `query ($id: ID!) {
        agent(id: $id) { name }
        node(id: $id) { id }
        assign: conversations(filter: { agentId: $id }) { totalCount }
      }`,
      { id: long },
    );
    // Each root field fails alone, beside the others.
    expect(response.body.data).toEqual({ agent: null, node: null, assign: null });
    expect(response.body.errors?.map((error) => [error.path, error.message])).toEqual([
      [["agent"], "`id` is 304 characters long; an ID has at most 255."],
      [["node"], "`id` is 304 characters long; an ID has at most 255."],
      [["assign"], "`filter.agentId` is 304 characters long; an ID has at most 255."],
    ]);
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("are quoted back cut short when their prefix is wrong", async () => {
    const response = await harness.graphql(`{ agent(id: "cnv_${"y".repeat(500)}") { name } }`);
    const message = response.body.errors?.[0]?.message ?? "";
    expect(message).toBe(
      `\`id\` must be an agent ID starting with "agt_", got "cnv_${"y".repeat(60)}…".`,
    );
  });
});
