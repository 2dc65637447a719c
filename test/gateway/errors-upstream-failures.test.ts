import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { closedPortUrl } from "../upstream/recording-upstream.ts";
import { UNAVAILABLE, UPSTREAM_REQUEST_ID } from "./errors-support.ts";
import { harness, oneHarnessPerFile } from "./file-harness.ts";
import { GATEWAY_REQUEST_ID, startHarness } from "./harness.ts";
import { sandboxErrorCode } from "./sandbox-answers.ts";

oneHarnessPerFile();

describe("upstream statuses become catalogue codes (contract §5)", () => {
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
        requestId: GATEWAY_REQUEST_ID,
        upstream: {
          status: 429,
          code: sandboxErrorCode("RATE_LIMITED"),
          message: "Injected fault: HTTP 429.",
          requestId: UPSTREAM_REQUEST_ID,
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
            requestId: GATEWAY_REQUEST_ID,
            upstream: {
              status: 500,
              code: sandboxErrorCode("INTERNAL_ERROR"),
              message: "Injected fault: HTTP 500.",
              requestId: UPSTREAM_REQUEST_ID,
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
      extensions: { code: "UPSTREAM_UNAVAILABLE", requestId: GATEWAY_REQUEST_ID, reason },
    };
  }

  it("when the upstream does not answer within the timeout", async () => {
    // Long enough for the call to reach the upstream on a busy machine, where the assertion
    // below would otherwise meet a call timed out before it was sent.
    const slow = await startHarness({ upstream: { timeoutMs: 2_000 } });
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

  it("when an agent comes without its ID: what belongs to it is never asked for", async () => {
    const agent = `/v1/agents/${SEED_IDS.acmeAgent}`;
    const withoutId = { name: "No ID", status: "ACTIVE", languages: ["en-US"] };
    const ask = (fields: string) => {
      harness.sandbox.injectFault({ path: agent, status: 200, body: withoutId });
      return harness.graphql(`{ agent(id: "${SEED_IDS.acmeAgent}") { name ${fields} } }`);
    };

    // Its stats (nullable): null, with the answer's own error, not a call for "undefined".
    const stats = await ask("stats");
    expect(stats.body.data).toEqual({ agent: { name: "No ID", stats: null } });
    expect(stats.body.errors).toEqual([
      expect.objectContaining({
        path: ["agent", "stats"],
        extensions: expect.objectContaining({
          code: "UPSTREAM_UNAVAILABLE",
          reason: "INVALID_RESPONSE",
        }),
      }),
    ]);
    // The stats of the ID asked for may be read beside the agent; never another's.
    expect(harness.takeUpstreamRequests().filter((r) => r.includes("undefined"))).toEqual([]);

    // Its conversations (non-null): the agent is null, and no list is read unfiltered.
    const conversations = await ask("conversations(first: 1) { totalCount }");
    expect(conversations.body.data).toEqual({ agent: null });
    expect(conversations.body.errors).toEqual([
      expect.objectContaining({
        path: ["agent", "conversations"],
        extensions: expect.objectContaining({ reason: "INVALID_RESPONSE" }),
      }),
    ]);
    const lists = harness
      .takeUpstreamRequests()
      .filter((r) => r.startsWith("GET /v1/conversations"));
    expect(lists.filter((request) => !request.includes(SEED_IDS.acmeAgent))).toEqual([]);
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
        // Each attempt counts against the budget: the first and its two retries.
        extensions: { cost: { estimated: 1, upstreamCalls: 3 } },
      });
      expect(refused.takeUpstreamRequests()).toEqual([]);
    } finally {
      await refused.close();
    }
  });
});
