import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { sendJson, startRecordingUpstream } from "../upstream/recording-upstream.ts";
import { GATEWAY_REQUEST_ID, startHarness } from "./harness.ts";

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
  const closing = closedAfterEachTest();

  it("masks an unexpected error as 'Unexpected error.' with no internal message or stack", async () => {
    // An agent list item without `primaryLanguage` (non-null in the schema) fails inside graphql-js.
    const upstream = closing(
      await startRecordingUpstream((_request, res) =>
        sendJson(res, 200, { items: [{ id: "agt_1" }], total: 1, page: 1, pageSize: 20 }),
      ),
    );
    const { lines, logger } = capturingLogger();
    const echoing = closing(
      await startHarness({
        upstream: { baseUrl: upstream.url },
        gateway: { logging: logger },
      }),
    );

    const response = await echoing.graphql("{ agents { nodes { id primaryLanguage } } }");

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: { agents: null },
      errors: [
        {
          message: "Unexpected error.",
          locations: [{ line: 1, column: 23 }],
          path: ["agents", "nodes", 0, "primaryLanguage"],
          extensions: { code: "INTERNAL_SERVER_ERROR", requestId: GATEWAY_REQUEST_ID },
        },
      ],
      extensions: { cost: { estimated: 3, upstreamCalls: 1 } },
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
    const upstream = closing(
      await startRecordingUpstream((request, res) => {
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
      }),
    );
    const { lines, logger } = capturingLogger();
    const echoing = closing(
      await startHarness({
        upstream: { baseUrl: upstream.url, maxRetries: 0 },
        gateway: { logging: logger },
      }),
    );

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
        requestId: GATEWAY_REQUEST_ID,
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
        requestId: GATEWAY_REQUEST_ID,
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
        requestId: GATEWAY_REQUEST_ID,
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
    const echoing = closing(await startHarness({ gateway: { logging: logger } }));

    const response = await echoing.graphql("{ organization { name } }", undefined, {
      authorization: `Token ${DEMO_KEYS.acme}`,
    });

    expect(response.body.errors?.[0]?.extensions.code).toBe("UNAUTHENTICATED");
    expect(JSON.stringify(response.body)).not.toContain(DEMO_KEYS.acme);
    expect(lines.filter((line) => line.includes(DEMO_KEYS.acme))).toEqual([]);
  });
});
