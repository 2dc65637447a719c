import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { call, expectError, sandboxFor } from "./http.ts";

const sandbox = sandboxFor("file");

const AGENT = `/v1/agents/${SEED_IDS.acmeAgent}`;

describe("400 for malformed bodies", () => {
  it("rejects a body that is not JSON", async () => {
    const answer = await call(sandbox(), AGENT, { method: "PATCH", body: "{name:" });
    expect(expectError(answer, 400, "BAD_REQUEST")).toEqual({
      location: "body",
      reason: "invalid JSON",
    });
  });

  it("rejects a body that is not an object", async () => {
    for (const body of ["[]", '"name"', "42", "null"]) {
      const answer = await call(sandbox(), AGENT, { method: "PATCH", body });
      expect(expectError(answer, 400, "BAD_REQUEST").reason).toBe("not an object");
    }
  });

  it("rejects a missing body where one is required", async () => {
    const answer = await call(sandbox(), "/v1/organization", { method: "PATCH" });
    expect(expectError(answer, 400, "BAD_REQUEST")).toEqual({
      location: "body",
      reason: "missing",
    });
  });

  it("rejects a field of the wrong type, naming it", async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ["PATCH", AGENT, { name: 42 }, "name"],
      ["PATCH", AGENT, { metadata: [] }, "metadata"],
      ["PATCH", AGENT, { voiceConfigs: {} }, "voiceConfigs"],
      ["PATCH", AGENT, { voiceConfigs: [{ voiceId: "v" }] }, "voiceConfigs[0].language"],
      ["PATCH", "/v1/organization", { email: null }, "email"],
      ["POST", "/v1/agents", { systemPrompt: "no name" }, "name"],
      ["POST", "/v1/phone-numbers/assign", { phoneNumberId: 1, agentId: "agt_x" }, "phoneNumberId"],
    ];
    for (const [method, path, body, field] of cases) {
      const details = expectError(
        await call(sandbox(), path, { method, body }),
        400,
        "BAD_REQUEST",
      );
      expect(details.field, JSON.stringify(body)).toBe(field);
    }
  });

  it("rejects unknown body fields, naming them", async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ["PATCH", AGENT, { status: "PAUSED" }, "status"],
      [
        "PATCH",
        AGENT,
        { voiceConfigs: [{ voiceId: "v", language: "en", pitch: 2 }] },
        "voiceConfigs[0].pitch",
      ],
      ["PATCH", "/v1/organization", { plan: "gold" }, "plan"],
      ["POST", "/v1/agents", { name: "X", colour: "red" }, "colour"],
    ];
    for (const [method, path, body, field] of cases) {
      const details = expectError(
        await call(sandbox(), path, { method, body }),
        400,
        "BAD_REQUEST",
      );
      expect(details).toEqual({ location: "body", field, reason: "is not a known field" });
    }
  });
});

describe("400 INVALID_PARAMETER for bad query parameters", () => {
  const cases: Array<[string, string]> = [
    ["/v1/conversations?limit=0", "limit"],
    ["/v1/conversations?limit=101", "limit"],
    ["/v1/conversations?limit=1.5", "limit"],
    ["/v1/conversations?limit=ten", "limit"],
    ["/v1/conversations?limit=", "limit"],
    ["/v1/conversations?offset=-1", "offset"],
    ["/v1/conversations?status=DONE", "status"],
    ["/v1/conversations?status=success", "status"],
    ["/v1/conversations?direction=SIDEWAYS", "direction"],
    ["/v1/conversations?channel=FAX", "channel"],
    ["/v1/conversations?startDate=yesterday", "startDate"],
    ["/v1/conversations?startDate=2026-01-10", "startDate"],
    ["/v1/conversations?endDate=2026-01-10T10:00:00", "endDate"],
    ["/v1/conversations?q=flu", "q"],
    ["/v1/conversations?limit=5&limit=6", "limit"],
    ["/v1/agents?page=0", "page"],
    ["/v1/agents?pageSize=0", "pageSize"],
    ["/v1/agents?pageSize=101", "pageSize"],
    ["/v1/campaigns?limit=0", "limit"],
    ["/v1/campaigns?limit=101", "limit"],
    ["/v1/campaigns?status=ARCHIVED", "status"],
    [`/v1/agents/${SEED_IDS.acmeAgent}?expand=all`, "expand"],
  ];
  for (const [path, parameter] of cases) {
    it(`rejects ${path}`, async () => {
      const details = expectError(await call(sandbox(), path), 400, "INVALID_PARAMETER");
      expect(details).toMatchObject({ location: "query", parameter });
    });
  }
});

describe("422 VALIDATION_ERROR for well-formed but invalid input", () => {
  it("rejects an empty name", async () => {
    for (const [method, path] of [
      ["PATCH", AGENT],
      ["POST", "/v1/agents"],
      ["PATCH", "/v1/organization"],
    ] as const) {
      const answer = await call(sandbox(), path, { method, body: { name: "  " } });
      expect(expectError(answer, 422, "VALIDATION_ERROR").field).toBe("name");
    }
  });

  it("rejects an invalid organization email, url or time zone", async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ email: "not-an-email" }, "email"],
      [{ url: "acme-health.example" }, "url"],
      [{ url: "ftp://acme.example" }, "url"],
      [{ timezone: "Mars/Olympus" }, "timezone"],
      [{ timezone: "+01:00" }, "timezone"],
    ];
    for (const [body, field] of cases) {
      const answer = await call(sandbox(), "/v1/organization", { method: "PATCH", body });
      expect(expectError(answer, 422, "VALIDATION_ERROR").field).toBe(field);
    }
  });

  it("rejects more than one default voice config", async () => {
    const voiceConfigs = [
      { voiceId: "a", language: "en-US", isDefault: true },
      { voiceId: "b", language: "en-GB", isDefault: true },
    ];
    const answer = await call(sandbox(), AGENT, { method: "PATCH", body: { voiceConfigs } });
    expect(expectError(answer, 422, "VALIDATION_ERROR").field).toBe("voiceConfigs[1].isDefault");
    const agent = await call(sandbox(), AGENT);
    expect(agent.body.voiceConfigs.map((c: { id: string }) => c.id)).toContain(
      SEED_IDS.acmeAgentVoiceConfig,
    );
  });

  it("rejects an invalid language tag", async () => {
    const answer = await call(sandbox(), AGENT, {
      method: "PATCH",
      body: { primaryLanguage: "english please" },
    });
    expect(expectError(answer, 422, "VALIDATION_ERROR").field).toBe("primaryLanguage");
  });

  it("rejects startDate after endDate", async () => {
    const answer = await call(
      sandbox(),
      "/v1/conversations?startDate=2026-02-01T00:00:00Z&endDate=2026-01-01T00:00:00Z",
    );
    expect(expectError(answer, 422, "VALIDATION_ERROR").parameter).toBe("startDate");
  });

  it("rejects body ids with the wrong prefix, naming the field", async () => {
    const cases: Array<[unknown, string]> = [
      [{ phoneNumberId: SEED_IDS.acmeAgent, agentId: SEED_IDS.acmeAgent }, "phoneNumberId"],
      [
        { phoneNumberId: SEED_IDS.acmePhoneNumberUnassigned, agentId: SEED_IDS.acmeContact },
        "agentId",
      ],
    ];
    for (const [body, field] of cases) {
      const answer = await call(sandbox(), "/v1/phone-numbers/assign", { method: "POST", body });
      expect(expectError(answer, 422, "VALIDATION_ERROR")).toMatchObject({
        location: "body",
        field,
      });
    }
  });

  it("rejects filter ids with the wrong prefix", async () => {
    const answer = await call(sandbox(), `/v1/conversations?agentId=${SEED_IDS.acmeContact}`);
    expect(expectError(answer, 422, "VALIDATION_ERROR").parameter).toBe("agentId");
  });
});
