import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSessionVerifier } from "../../src/gateway/session/verify-session.ts";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { SESSION_SECRET, sessionToken } from "../support/session-token.ts";
import { ACME, ACME_ORGANIZATION, GLOBEX } from "./harness.ts";
import { type McpHarness, startMcp } from "./mcp-support.ts";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  },
};

function post(mcp: McpHarness, body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(mcp.mcpUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function catalogueError(response: Response) {
  const body = (await response.json()) as {
    errors: Array<{ message: string; extensions: Record<string, unknown> }>;
  };
  return body.errors[0]?.extensions;
}

describe("/mcp over HTTP (passthrough)", () => {
  let mcp: McpHarness;
  beforeAll(async () => {
    mcp = await startMcp({ mcp: { corsOrigins: ["https://app.example"] } });
  });
  afterAll(() => mcp.close());

  it("refuses an Origin /graphql does not allow with 403, before anything runs", async () => {
    const response = await post(mcp, INITIALIZE, {
      authorization: ACME,
      origin: "http://attacker.example",
    });
    expect(response.status).toBe(403);
    expect(await catalogueError(response)).toMatchObject({ code: "FORBIDDEN" });
    const allowed = await post(mcp, INITIALIZE, {
      authorization: ACME,
      origin: "https://app.example",
    });
    expect(allowed.status).toBe(200);
    await allowed.body?.cancel();
  });

  it("answers a request without a key 401 with WWW-Authenticate: no tool list", async () => {
    const response = await post(mcp, INITIALIZE, {});
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer /);
    const extensions = await catalogueError(response);
    expect(extensions).toMatchObject({ code: "UNAUTHENTICATED" });
    expect(extensions?.requestId).toEqual(expect.any(String));
  });

  it("binds a session to the key that opened it", async () => {
    const opened = await post(mcp, INITIALIZE, { authorization: ACME });
    const session = opened.headers.get("mcp-session-id") as string;
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    await opened.body?.cancel();
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
    const stolen = await post(mcp, list, {
      authorization: GLOBEX,
      "mcp-session-id": session,
      "mcp-protocol-version": "2025-11-25",
    });
    expect(stolen.status).toBe(403);
    expect(await catalogueError(stolen)).toMatchObject({ code: "FORBIDDEN" });
    const none = await post(mcp, list, {
      "mcp-session-id": session,
      "mcp-protocol-version": "2025-11-25",
    });
    expect(none.status).toBe(401);
    await none.body?.cancel();
    const unknown = await post(mcp, list, {
      authorization: ACME,
      "mcp-session-id": "00000000-0000-0000-0000-000000000000",
    });
    expect(unknown.status).toBe(404);
    await unknown.body?.cancel();
  });

  it("gives output schemas and structuredContent only from protocol 2025-06-18", async () => {
    const answerOf = async (response: Response) => {
      const text = await response.text();
      const data = text.split("\n").find((line) => line.startsWith("data: "));
      return JSON.parse(data ? data.slice(6) : text) as { result: Record<string, unknown> };
    };
    const structuredIn = async (version: string) => {
      const opened = await post(
        mcp,
        { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: version } },
        { authorization: ACME },
      );
      await opened.body?.cancel();
      const headers = {
        authorization: ACME,
        "mcp-session-id": opened.headers.get("mcp-session-id") as string,
        "mcp-protocol-version": version,
      };
      await (
        await post(mcp, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)
      ).text();
      const list = await answerOf(
        await post(mcp, { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }, headers),
      );
      const call = await answerOf(
        await post(
          mcp,
          {
            jsonrpc: "2.0",
            id: 3,
            method: "tools/call",
            params: { name: "Organization", arguments: {} },
          },
          headers,
        ),
      );
      const tools = list.result.tools as Array<Record<string, unknown>>;
      return {
        outputSchema: tools.every((tool) => "outputSchema" in tool),
        structuredContent: "structuredContent" in call.result,
      };
    };
    expect(await structuredIn("2025-03-26")).toEqual({
      outputSchema: false,
      structuredContent: false,
    });
    expect(await structuredIn("2025-06-18")).toEqual({
      outputSchema: true,
      structuredContent: true,
    });
  });

  it("answers the transport's own refusals with the catalogue error beside JSON-RPC's", async () => {
    const notAcceptable = await post(mcp, INITIALIZE, {
      authorization: ACME,
      accept: "application/json",
    });
    expect(notAcceptable.status).toBe(406);
    const body = (await notAcceptable.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      jsonrpc: "2.0",
      error: { message: expect.stringContaining("Not Acceptable") },
      errors: [{ extensions: { code: "BAD_USER_INPUT", requestId: expect.any(String) } }],
    });
    const opened = await post(mcp, INITIALIZE, { authorization: ACME });
    await opened.body?.cancel();
    const wrongMethod = await fetch(mcp.mcpUrl, {
      method: "PUT",
      headers: {
        authorization: ACME,
        "mcp-session-id": opened.headers.get("mcp-session-id") as string,
      },
    });
    expect(wrongMethod.status).toBe(405);
    expect(await catalogueError(wrongMethod)).toMatchObject({
      code: "BAD_USER_INPUT",
      requestId: expect.any(String),
    });
  });

  it("refuses a body past MAX_REQUEST_BYTES and one that is not JSON", async () => {
    const large = { ...INITIALIZE, padding: "x".repeat(1024 * 1024) };
    const tooLarge = await post(mcp, large, { authorization: ACME });
    expect(tooLarge.status).toBe(413);
    expect(await catalogueError(tooLarge)).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    const garbled = await post(mcp, "{not json", { authorization: ACME });
    expect(garbled.status).toBe(400);
    expect(await catalogueError(garbled)).toMatchObject({ code: "BAD_USER_INPUT" });
  });

  it("serves no protected-resource metadata in passthrough", async () => {
    const response = await fetch(`${mcp.url}/.well-known/oauth-protected-resource/mcp`);
    expect(response.status).toBe(404);
    await response.body?.cancel();
  });
});

describe("/mcp sessions", () => {
  it("are bounded: past the most open, a new one is refused 429 and the open ones work", async () => {
    const mcp = await startMcp({ mcp: { maxSessions: 1 } });
    try {
      const first = await mcp.connect(ACME);
      const refused = await post(mcp, INITIALIZE, { authorization: GLOBEX });
      expect(refused.status).toBe(429);
      expect(await catalogueError(refused)).toMatchObject({ code: "RATE_LIMITED" });
      expect((await first.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await mcp.close();
    }
  });
});

describe("/mcp in session mode", () => {
  let mcp: McpHarness;
  beforeAll(async () => {
    mcp = await startMcp({
      gateway: {
        session: {
          verify: createSessionVerifier({ secret: SESSION_SECRET, audience: "voicegraph-mcp" }),
          keys: new Map([["org_acme", DEMO_KEYS.acme]]),
          perSessionPerMinute: 1000,
        },
      },
      mcp: { session: { issuer: "https://login.example", audience: "voicegraph-mcp" } },
    });
  });
  afterAll(() => mcp.close());

  it("answers 401 with the RFC 9728 metadata's address, and serves that document", async () => {
    const response = await post(mcp, INITIALIZE, {});
    expect(response.status).toBe(401);
    const challenge = response.headers.get("www-authenticate") ?? "";
    await response.body?.cancel();
    const address = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] as string;
    expect(address).toBe(`${mcp.url}/.well-known/oauth-protected-resource/mcp`);
    const metadata = await (await fetch(address)).json();
    expect(metadata).toMatchObject({
      resource: "voicegraph-mcp",
      authorization_servers: ["https://login.example"],
      bearer_methods_supported: ["header"],
    });
    const wrongAudience = await sessionToken({ audience: "another-app" });
    const refused = await post(mcp, INITIALIZE, { authorization: `Bearer ${wrongAudience}` });
    expect(refused.status).toBe(401);
    await refused.body?.cancel();
  });

  it("runs a tool with the session token and never sends the token upstream", async () => {
    const token = await sessionToken({ audience: "voicegraph-mcp" });
    const client = await mcp.connect(`Bearer ${token}`);
    mcp.takeUpstreamRequests();
    const result = await client.callTool({ name: "Organization", arguments: {} });
    expect(result.structuredContent).toMatchObject({
      organization: { name: ACME_ORGANIZATION.name },
    });
    const upstream = mcp.sandbox.requests;
    expect(upstream.length).toBeGreaterThan(0);
    for (const request of upstream) {
      expect(request.headers.authorization).toBe(`Bearer ${DEMO_KEYS.acme}`);
    }
  });

  it("refuses a session's token once it logged out, with MCP's own 401", async () => {
    const token = await sessionToken({ subject: "user-mcp-logout", audience: "voicegraph-mcp" });
    const client = await mcp.connect(`Bearer ${token}`);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    const logout = await fetch(`${mcp.url}/graphql/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(logout.status).toBe(204);
    const refused = await post(mcp, INITIALIZE, { authorization: `Bearer ${token}` });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer resource_metadata="/);
    expect(await refused.json()).toMatchObject({
      errors: [
        {
          message: "This session has logged out: sign in again.",
          extensions: { code: "UNAUTHENTICATED" },
        },
      ],
    });
    // The session it had opened is refused too: every request carries the token.
    await expect(client.listTools()).rejects.toThrow();
    // Another session goes on.
    const other = await sessionToken({ subject: "user-mcp-staying", audience: "voicegraph-mcp" });
    expect((await (await mcp.connect(`Bearer ${other}`)).listTools()).tools.length).toBeGreaterThan(
      0,
    );
  });
});
