import { createHash } from "node:crypto";
import { UnsecuredJWT } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSessionVerifier } from "../../src/gateway/session/verify-session.ts";
import { DEMO_KEYS } from "../../src/sandbox/seed-data.ts";
import { SESSION_SECRET, sessionToken } from "../support/session-token.ts";
import { type Harness, startHarness } from "./harness.ts";

const ISSUER = "https://signin.example.test";
const AUDIENCE = "voicegraph";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const ORGANIZATION = "query Org { organization { id name } }";
const UPDATE =
  'mutation Move { updateOrganization(input: { city: "Springfield" }) { organization { city } } }';
const manifest = { [sha256(ORGANIZATION)]: ORGANIZATION, [sha256(UPDATE)]: UPDATE };

/** A token as the frontend's sign-in would issue it; `claims` and `options` vary it. */
async function token(
  claims: Record<string, unknown> = {},
  options: { secret?: string; issuer?: string; audience?: string; expires?: string | number } = {},
) {
  return sessionToken({
    claims,
    subject: typeof claims.sub === "string" ? claims.sub : undefined,
    issuer: options.issuer ?? ISSUER,
    audience: options.audience ?? AUDIENCE,
    expires: options.expires,
    secret: options.secret ?? SESSION_SECRET,
  });
}

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({
    gateway: {
      session: {
        verify: createSessionVerifier({
          secret: SESSION_SECRET,
          issuer: ISSUER,
          audience: AUDIENCE,
        }),
        keys: new Map([
          ["org_acme", DEMO_KEYS.acme],
          ["org_globex", DEMO_KEYS.globex],
          ["org_readonly", DEMO_KEYS.acmeReadonly],
        ]),
        perSessionPerMinute: 50,
      },
      persistedDocuments: { manifest, trustedOnly: true },
      introspection: false,
    },
  });
});
afterAll(() => harness.close());
beforeEach(() => {
  harness.takeUpstreamRequests();
});

const run = (authorization: string | null, query = ORGANIZATION) =>
  harness.graphql(query, undefined, { authorization });

describe("session mode: keys stay on the server", () => {
  it("forwards the token's organization's key upstream, and only that key", async () => {
    const response = await run(`Bearer ${await token()}`);
    expect(response.body).toMatchObject({
      data: { organization: { id: "org_acme", name: "Acme Health" } },
    });
    expect(harness.sandbox.requests.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${DEMO_KEYS.acme}`,
    ]);
    expect(JSON.stringify(response.body)).not.toContain("sk_test");
  });

  it("keeps two organizations apart, also concurrently", async () => {
    const [acme, globex] = await Promise.all(
      Array.from({ length: 10 }, async (_, i) =>
        run(`Bearer ${await token({ org: i % 2 ? "org_globex" : "org_acme" })}`),
      ),
    ).then((all) => [all.filter((_, i) => i % 2 === 0), all.filter((_, i) => i % 2 === 1)]);
    for (const response of acme ?? []) {
      expect(response.body.data).toMatchObject({ organization: { id: "org_acme" } });
    }
    for (const response of globex ?? []) {
      expect(response.body.data).toMatchObject({ organization: { id: "org_globex" } });
    }
  });

  it.each([
    ["expired", () => token({}, { expires: Math.floor(Date.now() / 1000) - 120 })],
    ["for another audience", () => token({}, { audience: "someone-else" })],
    ["from another issuer", () => token({}, { issuer: "https://evil.example.test" })],
    [
      "signed with another secret",
      () => token({}, { secret: "another-secret-that-is-long-enough-too" }),
    ],
    [
      "unsigned (alg: none)",
      async () => new UnsecuredJWT({ org: "org_acme", sub: "u" }).setExpirationTime("5m").encode(),
    ],
    [
      "tampered (org changed after signing)",
      async () => {
        const [head, , mac] = (await token()).split(".");
        const body = Buffer.from(
          JSON.stringify({ org: "org_globex", sub: "user-1", exp: 9e9 }),
        ).toString("base64url");
        return `${head}.${body}.${mac}`;
      },
    ],
    ["an API key instead of a token", async () => DEMO_KEYS.acme],
  ])("refuses a token %s as UNAUTHENTICATED, with no upstream call", async (_what, make) => {
    const response = await run(`Bearer ${await make()}`);
    expect(response.status).toBe(401);
    expect(response.body.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("refuses a request without a token", async () => {
    const response = await run(null);
    expect(response.status).toBe(401);
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it.each([
    ["a bad token", "Bearer not-a-token"],
    ["no token", null],
  ])("answers %s with an ad-hoc query 401, not PERSISTED_QUERY_ONLY", async (_what, header) => {
    const response = await run(header, "{ agents(first: 1) { nodes { id } } }");
    expect(response.status).toBe(401);
    expect(response.body.errors?.map((error) => error.extensions?.code)).toEqual([
      "UNAUTHENTICATED",
    ]);
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("tells a browser at the endpoint to send its session token, never an API key", async () => {
    const response = await fetch(`${harness.url}/graphql`, { headers: { accept: "text/html" } });
    const page = await response.text();
    expect(response.status).toBe(200);
    expect(page).toContain("Bearer &lt;session token&gt;");
    expect(page).not.toContain("API key&gt;");
  });

  it("answers FORBIDDEN for an organization with no key configured", async () => {
    const response = await run(`Bearer ${await token({ org: "org_unknown" })}`);
    expect(response.status).toBe(403);
    expect(response.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("refuses a read-only session's mutation before any upstream call, and runs its queries", async () => {
    const readOnly = `Bearer ${await token({ readOnly: true })}`;
    const mutation = await run(readOnly, UPDATE);
    expect(mutation.status).toBe(403);
    expect(mutation.body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(harness.takeUpstreamRequests()).toEqual([]);
    expect((await run(readOnly)).body.data).toMatchObject({
      organization: { name: "Acme Health" },
    });
  });

  it("runs only the frontend's own operations, and no introspection", async () => {
    const authorization = `Bearer ${await token()}`;
    const other = await run(authorization, "{ agents(first: 100) { nodes { systemPrompt } } }");
    expect(other.body.errors?.[0]?.extensions?.code).toBe("PERSISTED_QUERY_ONLY");
    const schema = await run(authorization, "{ __schema { types { name } } }");
    expect(schema.body.errors?.[0]?.extensions?.code).toBe("PERSISTED_QUERY_ONLY");
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("limits each session's rate without touching another session's", async () => {
    const busy = `Bearer ${await token({ sub: "busy-tab" })}`;
    const statuses: number[] = [];
    for (let i = 0; i < 52; i++) statuses.push((await run(busy)).status);
    expect(statuses.slice(0, 50)).toEqual(Array(50).fill(200));
    expect(statuses.slice(50)).toEqual([429, 429]);
    const limited = await run(busy);
    expect(limited.body.errors?.[0]?.extensions).toMatchObject({ code: "RATE_LIMITED" });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await run(`Bearer ${await token({ sub: "calm-tab" })}`)).status).toBe(200);
  });
});
