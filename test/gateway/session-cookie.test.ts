import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { sessionToken } from "../support/session-token.ts";
import type { Harness } from "./harness.ts";
import { APP, COOKIE, startCookieSessionHarness } from "./session-cookie-support.ts";

const EVIL = "https://evil.example.test";

const token = (subject = "user-1") => sessionToken({ subject });

let harness: Harness;
beforeAll(async () => {
  harness = await startCookieSessionHarness();
});
afterAll(() => harness.close());

/** A browser's request from `origin` with the session cookie (and, unless told, the CSRF header). */
function fromPage(
  session: string,
  body: unknown,
  options: { origin?: string; csrf?: string | null; type?: string; accept?: string } = {},
) {
  return fetch(`${harness.url}/graphql`, {
    method: "POST",
    headers: {
      cookie: `theme=dark; ${COOKIE}=${session}`,
      origin: options.origin ?? APP,
      "content-type": options.type ?? "application/json",
      accept: options.accept ?? "application/graphql-response+json",
      ...(options.csrf === null ? {} : { "x-graphql-csrf": options.csrf ?? "1" }),
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** graphql-ws from a page of `origin`: the browser sends the cookie with the upgrade. */
function socketFrom(origin: string, session: string) {
  const headers = { origin, cookie: `${COOKIE}=${session}` };
  class BrowserSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers });
    }
  }
  return createClient({
    url: `${harness.url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: BrowserSocket,
    retryAttempts: 0,
    lazy: true,
    onNonLazyError: () => undefined,
  });
}

/** The first result of an operation over graphql-ws, or how its socket closed. */
function firstOver(client: ReturnType<typeof createClient>, query: string) {
  return new Promise<unknown>((resolve) => {
    const stop = client.subscribe(
      { query },
      {
        next: (value) => {
          resolve(value);
          stop();
        },
        error: (error) =>
          resolve({
            closed: (error as { code?: number; reason?: string }).code,
            reason: (error as { reason?: string }).reason,
          }),
        complete: () => undefined,
      },
    );
  });
}

describe("session mode over a cookie", () => {
  it("reads, writes and follows a live query with the cookie alone, on every transport", async () => {
    const session = await token();
    const read = await fromPage(session, { query: "{ organization { name } }" });
    expect(read.status).toBe(200);
    expect(read.headers.get("access-control-allow-credentials")).toBe("true");
    expect(await read.json()).toMatchObject({ data: { organization: { name: "Acme Health" } } });

    const write = await fromPage(session, {
      query:
        'mutation { updateOrganization(input: { city: "Cambridge" }) { organization { city } } }',
    });
    expect(await write.json()).toMatchObject({
      data: { updateOrganization: { organization: { city: "Cambridge" } } },
    });
    // The organization's key went upstream, never the cookie.
    expect(harness.sandbox.requests.at(-1)?.headers.authorization).toBe(`Bearer ${DEMO_KEYS.acme}`);

    const live = await fromPage(
      session,
      { query: "query @live { organization { city } }" },
      { accept: "text/event-stream" },
    );
    expect(live.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = (live.body as ReadableStream<Uint8Array>).getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('"city":"Cambridge"');
    await reader.cancel();

    const client = socketFrom(APP, session);
    expect(await firstOver(client, "{ organization { name } }")).toMatchObject({
      data: { organization: { name: "Acme Health" } },
    });
    await client.dispose();
  });

  describe("refuses what another site could send", () => {
    it("a cross-site form post, even with the cookie", async () => {
      harness.takeUpstreamRequests();
      const response = await fromPage(
        await token(),
        `query=${encodeURIComponent('mutation { deleteCampaign(id: "cmp_acme_flu_shots") { deletedId } }')}`,
        { origin: EVIL, csrf: null, type: "application/x-www-form-urlencoded" },
      );
      expect(response.status).toBe(403);
      expect(response.headers.get("access-control-allow-credentials")).toBeNull();
      expect((await response.json()).errors[0].extensions).toMatchObject({ code: "FORBIDDEN" });
      expect(harness.takeUpstreamRequests()).toEqual([]);
    });

    it.each([
      ["without the CSRF header", { csrf: null }],
      ["with an empty CSRF header", { csrf: "" }],
      ["from another origin, header and all", { origin: EVIL }],
    ])("a JSON POST %s", async (_what, options) => {
      harness.takeUpstreamRequests();
      const response = await fromPage(
        await token(),
        { query: "{ organization { name } }" },
        options,
      );
      expect(response.status).toBe(403);
      const body = await response.json();
      expect(body.errors[0].extensions).toMatchObject({
        code: "FORBIDDEN",
        requestId: response.headers.get("x-request-id"),
      });
      expect(body.data).toBeUndefined();
      expect(harness.takeUpstreamRequests()).toEqual([]);
    });

    it("a GET an image tag would send", async () => {
      const response = await fetch(
        `${harness.url}/graphql?query=${encodeURIComponent("{ organization { name } }")}`,
        { headers: { cookie: `${COOKIE}=${await token()}` } },
      );
      expect(response.status).toBe(403);
      await response.arrayBuffer();
    });

    it("another origin's socket", async () => {
      const client = socketFrom(EVIL, await token());
      expect(await firstOver(client, "{ organization { name } }")).toMatchObject({
        closed: 4403,
        reason: expect.stringMatching(/^FORBIDDEN/),
      });
      await client.dispose();
    });
  });

  it("logs out: the session's live operations end on every transport, and its token is refused", async () => {
    const session = await token("user-logging-out");
    const other = await token("user-staying");
    const live = await fromPage(
      session,
      { query: "query @live { organization { name } }" },
      { accept: "text/event-stream" },
    );
    const reader = (live.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    const ended = (async () => {
      for (;;) if ((await reader.read()).done) return "ended";
    })().catch(() => "ended");
    const socket = socketFrom(APP, session);
    const live2 = new Promise<unknown>((resolve) => {
      socket.subscribe(
        { query: "query @live { organization { name } }" },
        {
          next: () => undefined,
          error: (error) => resolve((error as { code?: number }).code),
          complete: () => resolve("complete"),
        },
      );
    });
    await new Promise((resolve) => setTimeout(resolve, 300));

    const logout = await fetch(`${harness.url}/graphql/logout`, {
      method: "POST",
      headers: { cookie: `${COOKIE}=${session}`, origin: APP, "x-graphql-csrf": "1" },
    });
    expect(logout.status).toBe(204);
    expect(logout.headers.get("set-cookie")).toMatch(new RegExp(`^${COOKIE}=; .*Max-Age=0`));
    expect(await ended).toBe("ended");
    expect(await live2).toBe(4403);
    await socket.dispose();

    const after = await fromPage(session, { query: "{ organization { name } }" });
    expect(after.status).toBe(401);
    expect((await after.json()).errors[0].extensions.code).toBe("UNAUTHENTICATED");
    // Another session of the same organization goes on.
    expect((await fromPage(other, { query: "{ organization { name } }" })).status).toBe(200);
  });

  it("lets the cookie ride on a page's and a probe's GET without refusing them", async () => {
    const cookie = `${COOKIE}=${await token()}`;
    const page = await fetch(`${harness.url}/graphql`, {
      headers: { cookie, accept: "text/html" },
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("session token");
    const health = await fetch(`${harness.url}/healthz`, { headers: { cookie } });
    expect(health.status).toBe(200);
    await health.arrayBuffer();
  });

  it("answers a preflight from a listed origin with credentials allowed, another with no CORS", async () => {
    const preflight = (origin: string) =>
      fetch(`${harness.url}/graphql`, {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type, x-graphql-csrf",
        },
      });
    const listed = await preflight(APP);
    expect(listed.headers.get("access-control-allow-origin")).toBe(APP);
    expect(listed.headers.get("access-control-allow-credentials")).toBe("true");
    expect(listed.headers.get("access-control-allow-headers")).toMatch(/x-graphql-csrf/i);
    const evil = await preflight(EVIL);
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
    expect(evil.headers.get("access-control-allow-credentials")).toBeNull();
  });
});
