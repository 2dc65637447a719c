import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.ts";
import { scriptPerTest } from "../support/scripts.ts";

// Tests read the banner once its last line is out: the demo keys ("other keys: …") over the
// embedded sandbox, "upstream: …" over another.
const start = scriptPerTest("src/main.ts");

describe("npm start", () => {
  it("starts the embedded sandbox and prints the GraphiQL URL and a demo key", async () => {
    const gateway = start({ PORT: "0", LOG_LEVEL: "error" });
    const banner = await gateway.stdoutWith("other keys");
    expect(banner).toMatch(/GraphiQL at http:\/\/127\.0\.0\.1:\d+\/graphql/);
    expect(banner).toContain("demo key: Authorization: Bearer sk_test_acme");
    const url = /GraphiQL at (\S+)/.exec(banner)?.[1] as string;

    const page = await fetch(url, { headers: { accept: "text/html" } });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("Bearer sk_test_acme");
    expect(html).toContain("query Overview");

    const answer = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk_test_acme" },
      body: JSON.stringify({ query: "{ organization { name } }" }),
    });
    expect(await answer.json()).toMatchObject({ data: { organization: { name: "Acme Health" } } });
  });

  it("uses the upstream UPSTREAM_URL names, and starts no sandbox", async () => {
    const upstream = await startSandbox({ port: 0 });
    try {
      const gateway = start({ PORT: "0", LOG_LEVEL: "error", UPSTREAM_URL: upstream.url });
      const banner = await gateway.stdoutWith("upstream:");
      expect(banner).toContain(`upstream: ${upstream.url}`);
      expect(banner).not.toContain("demo key");
      // GraphiQL is off away from the embedded sandbox: no page for anyone who finds the URL.
      expect(banner).toContain("GraphiQL off; GRAPHIQL=true turns it on");
      const url = /GraphQL at (\S+)/.exec(banner)?.[1] as string;
      const page = await fetch(url, { headers: { accept: "text/html" } });
      // Not GraphiQL: the short page that says how to turn it on.
      const html = await page.text();
      expect(html).toContain("GRAPHIQL=true");
      expect(html).not.toMatch(/graphiql\/assets/);

      const answer = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer sk_test_globex" },
        body: JSON.stringify({ query: "{ organization { name } }" }),
      });
      expect(await answer.json()).toMatchObject({
        data: { organization: { name: expect.any(String) } },
      });
      // The operation's call, with its key; and the start-up's reachability probe, with none.
      const seen = upstream.requests.map(
        (request) =>
          `${request.method} ${request.url} ${request.headers.authorization ?? "(no key)"}`,
      );
      expect(seen.sort()).toEqual([
        "GET /v1/organization (no key)",
        "GET /v1/organization Bearer sk_test_globex",
      ]);
    } finally {
      await upstream.close();
    }
  });

  it("serves GraphiQL over another upstream only with GRAPHIQL=true, without the demo key", async () => {
    const upstream = await startSandbox({ port: 0 });
    try {
      const gateway = start({
        PORT: "0",
        LOG_LEVEL: "error",
        UPSTREAM_URL: upstream.url,
        GRAPHIQL: "true",
      });
      const url = /GraphiQL at (\S+)/.exec(await gateway.stdoutWith("upstream:"))?.[1] as string;
      const page = await fetch(url, { headers: { accept: "text/html" } });
      const html = await page.text();
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(html).toContain("/graphiql/assets/");
      expect(html).not.toContain("sk_test_acme");
    } finally {
      await upstream.close();
    }
  });

  it("gives the embedded sandbox the SANDBOX_* settings", async () => {
    const gateway = start({ PORT: "0", LOG_LEVEL: "error", SANDBOX_RATE_LIMIT: "2" });
    const url = /GraphiQL at (\S+)/.exec(await gateway.stdoutWith("other keys"))?.[1] as string;
    const ask = () =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer sk_test_acme" },
        body: JSON.stringify({ query: "{ organization { name } }" }),
      });
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(200);
    const third = await ask();
    expect(third.status).toBe(429);
    expect(third.headers.get("x-ratelimit-limit")).toBe("2");
  });

  it.each([
    [{ PORT: "abc" }, 'PORT must be an integer from 0 to 65535 (got "abc")'],
    [{ PORT: "70000" }, 'PORT must be an integer from 0 to 65535 (got "70000")'],
    [
      { UPSTREAM_URL: "ftp://example.com" },
      'UPSTREAM_URL must be an http(s) URL without /v1, e.g. https://api.example.com (got "ftp://example.com")',
    ],
    [
      { UPSTREAM_URL: "https://api.example.com/v1" },
      'UPSTREAM_URL must not end with /v1 (the gateway adds it), e.g. https://api.example.com (got "https://api.example.com/v1")',
    ],
    [
      { MAX_UPSTREAM_CALLS: "0" },
      'MAX_UPSTREAM_CALLS must be an integer from 1 to 100000 (got "0")',
    ],
    [{ GRAPHIQL: "yes" }, 'GRAPHIQL must be true or false (got "yes")'],
    [{ FEDERATION: "yes" }, 'FEDERATION must be on or off (got "yes")'],
    [
      { FEDERATION: "on", AUTH_MODE: "session", SESSION_JWT_SECRET: "s".repeat(32) },
      "FEDERATION=on cannot run trusted documents only (the default of AUTH_MODE=session): a router sends its own query plans' operations; set TRUSTED_DOCUMENTS_ONLY=false and enforce trusted documents at the router (docs/federation.md)",
    ],
    [
      { CORS_ORIGINS: "https://app.example.com,null" },
      'CORS_ORIGINS must not list the "null" origin (any sandboxed frame or local file has it) (got "https://app.example.com,null")',
    ],
    [{ MAX_CONNECTIONS: "0" }, 'MAX_CONNECTIONS must be an integer from 1 to 1000000 (got "0")'],
    [{ LOG_LEVEL: "loud" }, 'LOG_LEVEL must be one of debug, info, warn, error (got "loud")'],
    [
      { CURSOR_SECRET: "too-short-secret" },
      "CURSOR_SECRET must be at least 32 characters, e.g. from openssl rand -hex 32 (got 16 characters, not shown)",
    ],
    [
      { SANDBOX_RATE_LIMIT: "0" },
      'SANDBOX_RATE_LIMIT must be an integer from 1 to 1000000000 (got "0")',
    ],
  ])("stops with one line naming a bad variable: %o", async (env, line) => {
    const gateway = start(env);
    const [code] = await once(gateway.child, "exit");
    expect(code).toBe(1);
    expect(gateway.output().stderr).toBe(`${line}\n`);
    expect(gateway.output().stdout).toBe("");
  });
});

describe("npm start in session mode", () => {
  it("serves a demo token from npm run demo-token with the organization's key, and prints no key", async () => {
    const secret = "a-demo-secret-that-is-at-least-32-characters";
    const gateway = start({
      PORT: "0",
      LOG_LEVEL: "debug",
      AUTH_MODE: "session",
      SESSION_JWT_SECRET: secret,
      TRUSTED_DOCUMENTS_ONLY: "false",
    });
    const banner = await gateway.stdoutWith("session mode");
    expect(banner).toContain("npm run demo-token -- acme");
    const url = /GraphQL at (\S+)/.exec(banner)?.[1] as string;

    const minting = spawn(process.execPath, ["scripts/demo-token.ts", "globex"], {
      env: { PATH: process.env.PATH ?? "", SESSION_JWT_SECRET: secret },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let token = "";
    minting.stdout?.on("data", (chunk) => {
      token += chunk;
    });
    await once(minting, "exit");

    const answer = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token.trim()}` },
      body: JSON.stringify({
        query: "{ organization { id name } __schema { queryType { name } } }",
      }),
    });
    const body = await answer.json();
    // Introspection is off by default in session mode.
    expect(body.errors?.[0]?.message).toMatch(/introspection/i);
    const org = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token.trim()}` },
      body: JSON.stringify({ query: "{ organization { id name } }" }),
    });
    expect(await org.json()).toMatchObject({
      data: { organization: { id: "org_globex", name: "Globex Corporation" } },
    });
    const { stdout, stderr } = gateway.output();
    expect(`${stdout}${stderr}`).not.toContain("sk_test");
  });
});
