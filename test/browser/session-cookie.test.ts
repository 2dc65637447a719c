import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { resolve } from "node:path";
import { build } from "esbuild";
import { type Browser, type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway } from "../../src/gateway/create-gateway.ts";
import { createSessionVerifier } from "../../src/gateway/session/verify-session.ts";
import { type ListeningGateway, listen } from "../../src/gateway/transport/server.ts";
import { listenHttp } from "../../src/listen.ts";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { createUpstreamClient, type UpstreamClient } from "../../src/upstream/client.ts";
import { sessionToken } from "../support/session-token.ts";
import { chromiumPath } from "./chromium.ts";

/**
 * Session mode over an HttpOnly cookie in a real browser: a frontend's page (its own origin,
 * listed in CORS_ORIGINS) reads, writes and follows a live query with urql and `credentials:
 * "include"`, over graphql-ws too; a page of another origin, to which the browser sends the same
 * cookie, gets nothing of it; a logout ends the live operations.
 */

const SECRET = "a-browser-test-secret-long-enough-for-hs256";
const COOKIE = "vg_session";
const MODULES = resolve(import.meta.dirname, "../../node_modules");
/** urql's ES modules, served to the page as they are installed, by an import map. */
const SCRIPTS: Record<string, string> = {
  "urql-core.mjs": "@urql/core/dist/urql-core.mjs",
  "urql-core-chunk.mjs": "@urql/core/dist/urql-core-chunk.mjs",
  "wonka.mjs": "wonka/dist/wonka.mjs",
  "graphql.web.mjs": "@0no-co/graphql.web/dist/graphql.web.mjs",
};
const PAGE = `<!doctype html><html><head><script type="importmap">${JSON.stringify({
  imports: {
    "@urql/core": "/m/urql-core.mjs",
    wonka: "/m/wonka.mjs",
    "@0no-co/graphql.web": "/m/graphql.web.mjs",
  },
})}</script><script>window.process = { env: { NODE_ENV: "production" } };</script><script type="module">import * as urql from "@urql/core"; window.urql = urql;</script><script type="module">import * as apollo from "/m/apollo.mjs"; window.apollo = apollo;</script></head><body>frontend</body></html>`;

/** Apollo Client as a frontend's bundler would ship it: one ES module for the browser. */
async function apolloBundle(): Promise<string> {
  const bundled = await build({
    stdin: {
      contents: 'export { ApolloClient, HttpLink, InMemoryCache, gql } from "@apollo/client";',
      resolveDir: resolve(import.meta.dirname, "../.."),
    },
    bundle: true,
    format: "esm",
    platform: "browser",
    define: { "process.env.NODE_ENV": '"production"' },
    write: false,
    logLevel: "silent",
  });
  return bundled.outputFiles[0]?.text ?? "";
}
let apolloModule: string;

/** A frontend's static server: the page and urql's modules. */
function frontendServer(): Server {
  return createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path === "/m/apollo.mjs") {
      res.writeHead(200, { "content-type": "text/javascript" });
      res.end(apolloModule);
      return;
    }
    const script = SCRIPTS[path.replace(/^\/m\//, "")];
    if (path.startsWith("/m/") && script !== undefined) {
      res.writeHead(200, { "content-type": "text/javascript" });
      res.end(readFileSync(resolve(MODULES, script)));
      return;
    }
    res.writeHead(path === "/" ? 200 : 404, { "content-type": "text/html" });
    res.end(path === "/" ? PAGE : "");
  });
}

let sandbox: Sandbox;
let upstream: UpstreamClient;
let gateway: ListeningGateway;
let browser: Browser;
let context: BrowserContext;
let app: { server: Server; url: string };
let other: { server: Server; url: string };

beforeAll(async () => {
  const executablePath = chromiumPath();
  apolloModule = await apolloBundle();
  const appServer = frontendServer();
  const otherServer = frontendServer();
  app = { server: appServer, url: await listenHttp(appServer, 0, "127.0.0.1") };
  other = { server: otherServer, url: await listenHttp(otherServer, 0, "127.0.0.1") };
  sandbox = await startSandbox({ port: 0 });
  upstream = createUpstreamClient({ baseUrl: sandbox.url });
  gateway = await listen(
    createGateway({
      upstream,
      logging: false,
      pollIntervalMs: 200,
      session: {
        verify: createSessionVerifier({ secret: SECRET }),
        keys: new Map([["org_acme", DEMO_KEYS.acme]]),
      },
      persistedDocuments: { trustedOnly: false },
      corsOrigins: [app.url],
    }),
    0,
    "127.0.0.1",
    { sessionCookie: { name: COOKIE, origins: [app.url] } },
  );
  browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
  context = await browser.newContext();
  // What the frontend's sign-in sets: no script of any page can read it. Both pages are of the
  // site 127.0.0.1, so the browser sends it with requests from either.
  const token = await sessionToken({ subject: "browser-user", expires: "10m", secret: SECRET });
  await context.addCookies([
    {
      name: COOKIE,
      value: token,
      url: gateway.url,
      httpOnly: true,
      secure: true,
      sameSite: "Strict",
    },
  ]);
});

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  await upstream?.close();
  await sandbox?.close();
  app?.server.close();
  other?.server.close();
});

/** What the page keeps of its live queries: each result seen, and each that ended. */
interface PageState {
  seen: string[];
  ended: string[];
  /** The page's urql, as its module script loaded it (the test's own `import()` is vitest's). */
  urql: typeof import("@urql/core");
}

/** Runs in the page: urql with the cookie, a query or mutation, and its first result. */
const URQL_ONCE = async ({ url, query }: { url: string; query: string }) => {
  const { Client, fetchExchange } = (window as unknown as PageState).urql;
  const client = new Client({
    url,
    exchanges: [fetchExchange],
    fetchOptions: { credentials: "include", headers: { "x-graphql-csrf": "1" } },
  });
  const result = query.startsWith("mutation")
    ? await client.mutation(query, {}).toPromise()
    : await client.query(query, {}, { requestPolicy: "network-only" }).toPromise();
  return { data: result.data ?? null, error: result.error ? String(result.error) : null };
};

/** Runs in the page: Apollo Client with the cookie, as docs/security.md shows it, once. */
const APOLLO_ONCE = async ({ url, query }: { url: string; query: string }) => {
  const { ApolloClient, HttpLink, InMemoryCache, gql } = (
    window as unknown as { apollo: typeof import("@apollo/client") }
  ).apollo;
  const client = new ApolloClient({
    link: new HttpLink({ uri: url, credentials: "include", headers: { "x-graphql-csrf": "1" } }),
    cache: new InMemoryCache(),
  });
  try {
    const result = query.startsWith("mutation")
      ? await client.mutate({ mutation: gql(query) })
      : await client.query({ query: gql(query), fetchPolicy: "network-only" });
    return { data: (result.data ?? null) as unknown, error: null as string | null };
  } catch (error) {
    return { data: null, error: String(error) };
  }
};

describe("session mode over a cookie, in a real browser", () => {
  it("reads and writes with Apollo Client from the frontend's page, and nothing from another's", async () => {
    const page = await context.newPage();
    await page.goto(app.url);
    await page.waitForFunction(() => "apollo" in window);
    const graphql = `${gateway.url}/graphql`;
    expect(
      await page.evaluate(APOLLO_ONCE, { url: graphql, query: "{ organization { id name } }" }),
    ).toEqual({
      data: {
        organization: { __typename: "Organization", id: expect.any(String), name: "Acme Health" },
      },
      error: null,
    });
    const written = await page.evaluate(APOLLO_ONCE, {
      url: graphql,
      query:
        'mutation { updateOrganization(input: { description: "Written by Apollo" }) { organization { id description } } }',
    });
    expect(written.error).toBeNull();
    expect(JSON.stringify(written.data)).toContain("Written by Apollo");
    // Another origin's page, which the browser sends the same cookie, gets nothing.
    const foreign = await context.newPage();
    await foreign.goto(other.url);
    await foreign.waitForFunction(() => "apollo" in window);
    const refused = await foreign.evaluate(APOLLO_ONCE, {
      url: graphql,
      query: "{ organization { name } }",
    });
    expect(refused.data).toBeNull();
    expect(refused.error).not.toBeNull();
    await Promise.all([page.close(), foreign.close()]);
  });

  it("reads, writes and follows a live query from the frontend's page, on every transport", async () => {
    const page = await context.newPage();
    await page.goto(app.url);
    await page.waitForFunction(() => "urql" in window);
    const graphql = `${gateway.url}/graphql`;
    expect(
      await page.evaluate(URQL_ONCE, { url: graphql, query: "{ organization { name } }" }),
    ).toEqual({
      data: { organization: { name: "Acme Health" } },
      error: null,
    });
    expect(await page.evaluate(() => document.cookie)).toBe("");

    // A live query over urql's fetch (SSE), and one over graphql-ws, both waiting for a change.
    await page.evaluate(async (url) => {
      const { Client, fetchExchange } = (window as unknown as PageState).urql;
      const client = new Client({
        url,
        exchanges: [fetchExchange],
        fetchOptions: { credentials: "include", headers: { "x-graphql-csrf": "1" } },
      });
      const seen: string[] = [];
      Object.assign(window, { seen, ended: [] as string[] });
      client
        .query("query @live { organization { city } }", {})
        .subscribe((result: { data?: { organization?: { city?: string } }; error?: unknown }) => {
          seen.push(`sse:${result.data?.organization?.city ?? result.error}`);
          if (result.error) (window as unknown as PageState).ended.push("sse");
        });
      const socket = new WebSocket(url.replace(/^http/, "ws"), "graphql-transport-ws");
      socket.onopen = () => socket.send(JSON.stringify({ type: "connection_init" }));
      socket.onclose = (event) => (window as unknown as PageState).ended.push(`ws:${event.code}`);
      socket.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (message.type === "connection_ack") {
          socket.send(
            JSON.stringify({
              id: "1",
              type: "subscribe",
              payload: { query: "query @live { organization { city } }" },
            }),
          );
        }
        if (message.type === "next") seen.push(`ws:${message.payload.data?.organization?.city}`);
      };
    }, graphql);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as PageState).seen.length))
      .toBe(2);

    const moved = await page.evaluate(URQL_ONCE, {
      url: graphql,
      query:
        'mutation { updateOrganization(input: { city: "Cambridge" }) { organization { city } } }',
    });
    expect(moved).toEqual({
      data: { updateOrganization: { organization: { city: "Cambridge" } } },
      error: null,
    });
    // The write pushes at once to both live queries.
    await expect
      .poll(() => page.evaluate(() => [...(window as unknown as PageState).seen].sort()), {
        timeout: 20_000,
      })
      .toEqual(expect.arrayContaining(["sse:Cambridge", "ws:Cambridge"]));

    // A logout ends both, and the cookie is gone.
    const status = await page.evaluate(async (url) => {
      const response = await fetch(url, {
        method: "POST",
        credentials: "include",
        headers: { "x-graphql-csrf": "1" },
      });
      return response.status;
    }, `${gateway.url}/graphql/logout`);
    expect(status).toBe(204);
    await expect
      .poll(() => page.evaluate(() => [...(window as unknown as PageState).ended].sort()), {
        timeout: 20_000,
      })
      .toEqual(["sse", "ws:4403"]);
    const after = await page.evaluate(URQL_ONCE, {
      url: graphql,
      query: "{ organization { name } }",
    });
    expect(after.data).toBeNull();
    await page.close();
  });

  it("gives a page of another origin nothing, though the browser sends it the cookie", async () => {
    const fresh = await sessionToken({ subject: "browser-user-2", expires: "10m", secret: SECRET });
    await context.addCookies([
      {
        name: COOKIE,
        value: fresh,
        url: gateway.url,
        httpOnly: true,
        secure: true,
        sameSite: "Strict",
      },
    ]);
    const page = await context.newPage();
    await page.goto(other.url);
    await page.waitForFunction(() => "urql" in window);
    sandbox.clearRequests();
    const graphql = `${gateway.url}/graphql`;
    // urql's request: its preflight gets no CORS answer, so the browser sends nothing.
    const read = await page.evaluate(URQL_ONCE, {
      url: graphql,
      query: "{ organization { name } }",
    });
    expect(read.data).toBeNull();
    expect(read.error).toMatch(/Network/);
    // A form post and a no-cors fetch, which need no preflight: refused before anything runs.
    await page.evaluate((url) => {
      const form = document.createElement("form");
      form.method = "POST";
      form.action = url;
      form.target = "sink";
      const iframe = document.createElement("iframe");
      iframe.name = "sink";
      const field = document.createElement("input");
      field.name = "query";
      field.value =
        'mutation { updateOrganization(input: { city: "Evil" }) { organization { city } } }';
      form.append(field);
      document.body.append(iframe, form);
      form.submit();
    }, graphql);
    await page.evaluate(
      (url) =>
        fetch(url, {
          method: "POST",
          mode: "no-cors",
          credentials: "include",
          headers: { "content-type": "text/plain" },
          body: JSON.stringify({ query: "{ organization { name } }" }),
        }),
      graphql,
    );
    // Its socket: closed 4403 before any operation.
    const closed = await page.evaluate(
      (url) =>
        new Promise<number>((done) => {
          const socket = new WebSocket(url.replace(/^http/, "ws"), "graphql-transport-ws");
          socket.onopen = () => socket.send(JSON.stringify({ type: "connection_init" }));
          socket.onclose = (event) => done(event.code);
        }),
      graphql,
    );
    expect(closed).toBe(4403);
    await page.waitForTimeout(300);
    expect(sandbox.requests).toEqual([]);
    await page.close();
  });
});
