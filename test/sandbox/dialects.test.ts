import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/env.ts";
import { readSandboxConfig } from "../../src/sandbox/config.ts";
import { DIALECTS } from "../../src/sandbox/dialects.ts";
import { DEFAULT_OPTIONS, resolveOptions } from "../../src/sandbox/options.ts";
import { DEMO_KEYS, SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { call } from "./http.ts";

// Both dialects side by side: each test shows the alternate's choice and that the standard
// sandbox still makes its own, so neither reading can drift into the other unnoticed.
let standard: Sandbox;
let alternate: Sandbox;
beforeAll(async () => {
  // One frozen clock for both: live calls' start times and durations are read from it, so two
  // sandboxes started a moment apart would otherwise disagree across a second's boundary.
  const frozenMs = Date.now();
  const still = { callDurationMs: 3_600_000, callIntervalMs: 3_600_000, now: () => frozenMs };
  standard = await startSandbox({ ...still });
  alternate = await startSandbox({ ...still, dialect: "alternate" });
});
afterAll(async () => {
  await standard.close();
  await alternate.close();
});

const ISO_MILLIS_Z = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const ISO_SECONDS_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/;

describe("operation 7 in the alternate dialect", () => {
  it("answers items and a total, echoing neither limit nor offset", async () => {
    const alt = await call(alternate, "/v1/conversations?limit=3&offset=2");
    const std = await call(standard, "/v1/conversations?limit=3&offset=2");

    expect(alt.status).toBe(200);
    expect(Object.keys(alt.body).sort()).toEqual(["items", "total"]);
    expect(alt.body.total).toBe(std.body.total);
    expect(alt.body.items.map((c: { id: string }) => c.id)).toEqual(
      std.body.items.map((c: { id: string }) => c.id),
    );
    expect(Object.keys(std.body).sort()).toEqual(["items", "limit", "offset", "total"]);
  });

  it("refers to agent and contact as nested objects and counts duration in milliseconds", async () => {
    const query = `/v1/conversations?limit=100&contactId=${SEED_IDS.acmeContact}`;
    const alt = (await call(alternate, query)).body.items;
    const std = (await call(standard, query)).body.items;

    expect(alt.length).toBeGreaterThan(0);
    for (const [index, item] of alt.entries()) {
      const twin = std[index];
      expect(item).not.toHaveProperty("agentId");
      expect(item).not.toHaveProperty("contactId");
      expect(item.agent).toEqual(twin.agentId === null ? null : { id: twin.agentId });
      expect(item.contact).toEqual({ id: SEED_IDS.acmeContact });
      expect(item.duration).toBe(twin.duration * 1000);
      expect(item.startedAt).toMatch(ISO_SECONDS_OFFSET);
      expect(twin.startedAt).toMatch(ISO_MILLIS_Z);
      expect(Date.parse(item.startedAt)).toBe(Math.floor(Date.parse(twin.startedAt) / 1000) * 1000);
    }
  });

  it("names the free-text parameter q and refuses search", async () => {
    const alt = await call(alternate, "/v1/conversations?limit=100&q=refill");
    const std = await call(standard, "/v1/conversations?limit=100&search=refill");
    expect(alt.status).toBe(200);
    expect(alt.body.items.map((c: { id: string }) => c.id)).toEqual(
      std.body.items.map((c: { id: string }) => c.id),
    );

    const refused = await call(alternate, "/v1/conversations?search=refill");
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "BAD_REQUEST" });
    expect((await call(standard, "/v1/conversations?q=refill")).status).toBe(400);
  });
});

describe("operation 8 in the alternate dialect", () => {
  it("answers the seed's four fields only, duration in milliseconds", async () => {
    const path = `/v1/conversations/${SEED_IDS.acmeConversation}/status`;
    const alt = await call(alternate, path);
    const std = await call(standard, path);

    expect(Object.keys(alt.body).sort()).toEqual(["duration", "endedAt", "id", "startedAt"]);
    expect(alt.body.duration).toBe(std.body.duration * 1000);
    expect(std.body).toHaveProperty("status");
  });
});

describe("writes in the alternate dialect", () => {
  it("deletes with 200 and { id, deleted: true } (operations 9 and 11)", async () => {
    const property = await call(alternate, `/v1/properties/${SEED_IDS.acmeProperty}`, {
      method: "DELETE",
    });
    expect(property.status).toBe(200);
    expect(property.body).toEqual({ id: SEED_IDS.acmeProperty, deleted: true });

    const campaign = SEED_IDS.acmeCampaignWithoutFailedRows;
    const deleted = await call(alternate, `/v1/campaigns/${campaign}`, { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: campaign, deleted: true });
    expect((await call(alternate, `/v1/campaigns/${campaign}`)).status).toBe(404);

    const std = await call(standard, `/v1/properties/${SEED_IDS.acmeProperty}`, {
      method: "DELETE",
    });
    expect(std.status).toBe(204);
    expect(std.body).toBeUndefined();
  });

  it("answers assign-phone-number with the number wrapped, marked assigned", async () => {
    const body = {
      phoneNumberId: SEED_IDS.acmePhoneNumberUnassigned,
      agentId: SEED_IDS.acmeAgent,
    };
    const alt = await call(alternate, "/v1/phone-numbers/assign", { method: "POST", body });
    const std = await call(standard, "/v1/phone-numbers/assign", { method: "POST", body });

    expect(alt.status).toBe(200);
    expect(alt.body).toEqual({
      assigned: true,
      phoneNumber: { ...std.body, assignedAt: expect.stringMatching(ISO_SECONDS_OFFSET) },
    });
    expect(std.body).toMatchObject({ id: body.phoneNumberId, agentId: body.agentId });
  });

  it("answers a retry with the whole campaign, and creates agents with a plain 200", async () => {
    const campaign = SEED_IDS.acmeCampaignWithFailedRows;
    const retried = await call(alternate, `/v1/campaigns/${campaign}/retry`, { method: "POST" });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ id: campaign, status: "RUNNING", failedRows: 0 });
    expect(retried.body).not.toHaveProperty("retriedRows");
    const std = await call(standard, `/v1/campaigns/${campaign}/retry`, { method: "POST" });
    expect(std.body).toEqual({ campaignId: campaign, retriedRows: 12, status: "RUNNING" });

    const created = await call(alternate, "/v1/agents", {
      method: "POST",
      body: { name: "Dialect" },
    });
    expect(created.status).toBe(200);
    expect(created.headers.get("location")).toBeNull();
    expect(created.body).toMatchObject({ name: "Dialect", status: "ACTIVE" });
  });
});

describe("reads in the alternate dialect", () => {
  it("answers the tool catalog as a bare array, the organization without timestamps", async () => {
    const tools = await call(alternate, "/v1/tools/catalog");
    expect(Array.isArray(tools.body)).toBe(true);
    expect(tools.body).toEqual((await call(standard, "/v1/tools/catalog")).body.items);

    const organization = (await call(alternate, "/v1/organization")).body;
    expect(organization).toMatchObject({ id: SEED_IDS.acmeOrganization, name: "Acme Health" });
    expect(organization).not.toHaveProperty("createdAt");
    expect(organization).not.toHaveProperty("updatedAt");
    expect((await call(standard, "/v1/organization")).body).toHaveProperty("createdAt");
  });

  it("serves unprefixed paths like their /v1 twins; the standard sandbox does not", async () => {
    const alt = await call(alternate, `/agents/${SEED_IDS.acmeAgent}`);
    expect(alt.status).toBe(200);
    expect(alt.body).toEqual((await call(alternate, `/v1/agents/${SEED_IDS.acmeAgent}`)).body);
    expect((await call(standard, `/agents/${SEED_IDS.acmeAgent}`)).status).toBe(404);
  });

  it("bounds the campaigns list at 50 and rejects a bad cursor with 422", async () => {
    const page = await call(alternate, "/v1/campaigns?limit=100");
    expect(page.body.items.length).toBeLessThanOrEqual(DIALECTS.alternate.campaignsMaxLimit);

    const forged = await call(alternate, "/v1/campaigns?cursor=abc.def");
    expect(forged.status).toBe(422);
    expect(forged.body.error).toMatchObject({ code: "UNPROCESSABLE_ENTITY" });
    expect((await call(standard, "/v1/campaigns?cursor=abc.def")).status).toBe(400);
  });

  it("sends its own rate-limit values", async () => {
    const alt = await call(alternate, "/v1/organization");
    expect(alt.headers.get("x-ratelimit-limit")).toBe("50000");
    // Windows are aligned on multiples of their length: an hour here, a minute in standard.
    const reset = Number(alt.headers.get("x-ratelimit-reset"));
    expect(reset % 3_600).toBe(0);
    expect(reset - Date.now() / 1000).toBeLessThanOrEqual(3_600);
    const std = await call(standard, "/v1/organization");
    expect(std.headers.get("x-ratelimit-limit")).toBe("100000");
  });
});

describe("stats in the alternate dialect", () => {
  it("name their durations for milliseconds", async () => {
    const path = `/v1/contacts/${SEED_IDS.acmeContact}/stats`;
    const alt = (await call(alternate, path)).body;
    const std = (await call(standard, path)).body;
    expect(alt).not.toHaveProperty("totalDurationSeconds");
    expect(alt.totalDurationMs).toBe(std.totalDurationSeconds * 1000);
    expect(alt.lastInteractionAt).toMatch(ISO_SECONDS_OFFSET);

    const agent = (await call(alternate, `/v1/agents/${SEED_IDS.acmeAgent}/stats`)).body;
    const stdAgent = (await call(standard, `/v1/agents/${SEED_IDS.acmeAgent}/stats`)).body;
    expect(agent.averageDurationMs).toBe(stdAgent.averageDurationSeconds * 1000);
    expect(agent).not.toHaveProperty("averageDurationSeconds");
  });
});

describe("error bodies in the alternate dialect", () => {
  it("carry one code per status, no requestId, and say why a key was refused", async () => {
    const unknown = await call(alternate, "/v1/organization", { key: "sk_nobody" });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({
      error: {
        code: "UNAUTHENTICATED",
        message: "Invalid API key or malformed Authorization header.",
        details: { reason: "invalid_key" },
      },
    });
    const missing = await call(alternate, "/v1/organization", { key: null });
    expect(missing.body.error.details).toEqual({ reason: "missing_key" });

    const readOnly = await call(alternate, "/v1/organization", {
      method: "PATCH",
      key: DEMO_KEYS.acmeReadonly,
      body: { city: "Springfield" },
    });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error).toMatchObject({
      code: "PERMISSION_DENIED",
      details: { reason: "read_only", required: "write" },
    });

    const missingAgent = await call(alternate, "/v1/agents/agt_nobody");
    expect(missingAgent.body).toEqual({
      error: {
        code: "NOT_FOUND",
        message: "Agent agt_nobody was not found.",
        details: { id: "agt_nobody" },
      },
    });

    const std = await call(standard, "/v1/organization", { key: "sk_nobody" });
    expect(std.body).toEqual({
      error: {
        code: "UNAUTHORIZED",
        message: "Invalid API key or malformed Authorization header.",
      },
      requestId: expect.stringMatching(/^req_/),
    });
  });
});

describe("choosing the dialect", () => {
  it("refuses an unknown dialect when the sandbox starts", async () => {
    await expect(startSandbox({ dialect: "lenient" as "standard" })).rejects.toThrow(
      "startSandbox: dialect must be one of standard, alternate",
    );
  });
});

describe("SANDBOX_DIALECT", () => {
  it("picks the dialect, whose defaults apply where no SANDBOX_* value is set", () => {
    const { options } = readSandboxConfig({ SANDBOX_DIALECT: "alternate" });
    expect(options.dialect).toBe("alternate");
    expect(options.rateLimit).toBeUndefined();
    expect(resolveOptions(readSandboxConfig({}).options).dialect).toBe("standard");
  });

  it("leaves every unset variable to the sandbox's one list of defaults", () => {
    const resolved = resolveOptions(readSandboxConfig({}).options);
    expect(resolved).toEqual({ ...DEFAULT_OPTIONS, random: resolved.random });
    expect(
      resolveOptions(readSandboxConfig({ SANDBOX_CALL_DURATION_S: "5" }).options),
    ).toMatchObject({ callDurationMs: 5000, callIntervalMs: DEFAULT_OPTIONS.callIntervalMs });
  });

  it("names the variable and the choices when the value is unknown", () => {
    expect(() => readSandboxConfig({ SANDBOX_DIALECT: "lenient" })).toThrow(
      new ConfigError('SANDBOX_DIALECT must be one of standard, alternate (got "lenient")'),
    );
  });
});

describe("dates in the alternate dialect", () => {
  it("rewrites the date-time fields and leaves free-form metadata as stored", async () => {
    const metadata = { followUpAt: "2026-02-01T10:00:00.000Z" };
    const patched = await call(alternate, `/v1/agents/${SEED_IDS.acmeAgent}`, {
      method: "PATCH",
      body: { metadata },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.metadata).toEqual(metadata);
    expect(patched.body.updatedAt).toMatch(ISO_SECONDS_OFFSET);
    expect(patched.body.createdAt).toMatch(ISO_SECONDS_OFFSET);
  });
});
