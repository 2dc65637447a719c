import { describe, expect, it } from "vitest";
import { DEMO_KEYS, SEED_COUNTS, SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { call, expectError, sandboxFor } from "./http.ts";

const sandbox = sandboxFor("test");

const AGENT = `/v1/agents/${SEED_IDS.acmeAgent}`;

describe("agent list (page form)", () => {
  it("defaults to page 1 of 20, oldest first", async () => {
    const answer = await call(sandbox(), "/v1/agents");
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(["items", "page", "pageSize", "total"]);
    expect(answer.body).toMatchObject({ total: SEED_COUNTS.acme.agents, page: 1, pageSize: 20 });
    expect(answer.body.items).toHaveLength(20);
    expect(answer.body.items.slice(0, 3).map((a: { id: string }) => a.id)).toEqual([
      SEED_IDS.acmeAgent,
      SEED_IDS.acmeAgentPaused,
      SEED_IDS.acmeAgentInactive,
    ]);
  });

  it("spans three pages of 20 with no overlap, and answers an empty page past the end", async () => {
    const pages = await Promise.all(
      [1, 2, 3, 4].map((page) => call(sandbox(), `/v1/agents?page=${page}`)),
    );
    expect(pages.map((p) => p.body.items.length)).toEqual([20, 20, 5, 0]);
    const ids = pages.flatMap((p) => p.body.items.map((a: { id: string }) => a.id));
    expect(new Set(ids).size).toBe(SEED_COUNTS.acme.agents);
    const createdAts = pages.flatMap((p) =>
      p.body.items.map((a: { createdAt: string }) => a.createdAt),
    );
    expect(createdAts).toEqual([...createdAts].sort());
    expect(pages[3]?.body).toEqual({ items: [], total: 45, page: 4, pageSize: 20 });
  });

  it("has seeded agents in every status, the first three with voice configs", async () => {
    const all = (await call(sandbox(), "/v1/agents?pageSize=100")).body.items;
    expect(new Set(all.map((a: { status: string }) => a.status))).toEqual(
      new Set(["ACTIVE", "PAUSED", "INACTIVE"]),
    );
    expect(all.slice(0, 3).map((a: { status: string }) => a.status)).toEqual([
      "ACTIVE",
      "PAUSED",
      "INACTIVE",
    ]);
    for (const agent of all.slice(0, 3)) expect(agent.voiceConfigs.length).toBeGreaterThan(0);
    expect((await call(sandbox(), "/v1/agents", { key: DEMO_KEYS.globex })).body.total).toBe(
      SEED_COUNTS.globex.agents,
    );
  });
});

describe("get and update agent", () => {
  it("returns the agent with its status", async () => {
    const answer = await call(sandbox(), AGENT);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: SEED_IDS.acmeAgent,
      name: "Reception",
      status: "ACTIVE",
      supportedLanguages: ["en-US", "es-ES"],
    });
    expect(answer.body.voiceConfigs[0]).toEqual({
      id: SEED_IDS.acmeAgentVoiceConfig,
      voiceId: "voice_ava",
      language: "en-US",
      label: "Ava (English)",
      settings: { speed: 1, stability: 0.6 },
      isDefault: true,
    });
  });

  it("answers an update without status, keeping omitted fields", async () => {
    const before = (await call(sandbox(), AGENT)).body;
    const answer = await call(sandbox(), AGENT, {
      method: "PATCH",
      body: { greeting: "Hi!", metadata: { tier: "gold" } },
    });
    expect(answer.status).toBe(200);
    const { status, ...withoutStatus } = before;
    expect(status).toBe("ACTIVE");
    expect(answer.body).toEqual({
      ...withoutStatus,
      greeting: "Hi!",
      metadata: { tier: "gold" },
      updatedAt: answer.body.updatedAt,
    });
    expect(answer.body).not.toHaveProperty("status");
    expect((await call(sandbox(), AGENT)).body).toEqual({ ...answer.body, status: "ACTIVE" });
  });

  it("replaces voice configs, keeping ids that name existing configs", async () => {
    const answer = await call(sandbox(), AGENT, {
      method: "PATCH",
      body: {
        voiceConfigs: [
          {
            id: SEED_IDS.acmeAgentVoiceConfig,
            voiceId: "voice_ava2",
            language: "en-US",
            isDefault: true,
          },
          { id: "vc_made_up", voiceId: "voice_kai", language: "de-DE", label: "Kai" },
        ],
      },
    });
    expect(answer.status).toBe(200);
    const [kept, added] = answer.body.voiceConfigs;
    expect(answer.body.voiceConfigs).toHaveLength(2);
    expect(kept).toEqual({
      id: SEED_IDS.acmeAgentVoiceConfig,
      voiceId: "voice_ava2",
      language: "en-US",
      label: "voice_ava2",
      settings: {},
      isDefault: true,
    });
    expect(added.id).toMatch(/^vc_[a-z0-9]{16}$/);
    expect(added).toMatchObject({ voiceId: "voice_kai", label: "Kai", isDefault: false });
  });

  it("adds a new primary language to the supported languages", async () => {
    const answer = await call(sandbox(), AGENT, {
      method: "PATCH",
      body: { primaryLanguage: "fr-FR" },
    });
    expect(answer.body.supportedLanguages).toEqual(["en-US", "es-ES", "fr-FR"]);
  });

  it("answers 409 CONFLICT when renaming to another agent's name", async () => {
    const answer = await call(sandbox(), AGENT, { method: "PATCH", body: { name: " scheduler " } });
    expect(expectError(answer, 409, "CONFLICT")).toEqual({
      field: "name",
      conflictingId: SEED_IDS.acmeAgentPaused,
    });
    const same = await call(sandbox(), AGENT, { method: "PATCH", body: { name: "Reception" } });
    expect(same.status).toBe(200);
  });
});

describe("create agent (assumed POST /v1/agents)", () => {
  it("answers 201 with an ACTIVE agent, a generated id and defaults", async () => {
    const answer = await call(sandbox(), "/v1/agents", {
      method: "POST",
      body: { name: "Night shift", voiceConfigs: [{ voiceId: "voice_ava", language: "en-US" }] },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.id).toMatch(/^agt_[a-z0-9]{16}$/);
    expect(answer.headers.get("location")).toBe(`/v1/agents/${answer.body.id}`);
    expect(answer.body).toMatchObject({
      name: "Night shift",
      status: "ACTIVE",
      primaryLanguage: "en-US",
      supportedLanguages: ["en-US"],
      systemPrompt: "",
      greeting: "",
      model: "gpt-4o",
      metadata: {},
    });
    expect(answer.body.createdAt).toBe(answer.body.updatedAt);
    expect((await call(sandbox(), `/v1/agents/${answer.body.id}`)).body).toEqual(answer.body);
    const last = await call(sandbox(), "/v1/agents?page=3");
    expect(last.body.total).toBe(46);
    expect(last.body.items.at(-1).id).toBe(answer.body.id);
  });

  it("answers 409 CONFLICT for a name already used in the organization, not in another", async () => {
    const duplicate = await call(sandbox(), "/v1/agents", {
      method: "POST",
      body: { name: "reception" },
    });
    expectError(duplicate, 409, "CONFLICT");
    const elsewhere = await call(sandbox(), "/v1/agents", {
      key: DEMO_KEYS.globex,
      method: "POST",
      body: { name: "Reception" },
    });
    expect(elsewhere.status).toBe(201);
  });
});

describe("agent stats", () => {
  it("computes the stats from the agent's conversations", async () => {
    const stats = (await call(sandbox(), `${AGENT}/stats`)).body;
    const all = [
      ...(await call(sandbox(), `/v1/conversations?agentId=${SEED_IDS.acmeAgent}&limit=100`)).body
        .items,
    ];
    expect(stats.agentId).toBe(SEED_IDS.acmeAgent);
    expect(stats.totalConversations).toBe(all.length);
    expect(stats.activeConversations).toBe(all.filter((c) => c.status === "IN_PROGRESS").length);
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    expect(sum(Object.values(stats.byStatus))).toBe(all.length);
    expect(sum(Object.values(stats.byChannel))).toBe(all.length);
    expect(stats.lastConversationAt).toBe(all[0].startedAt);
    expect(Number.isInteger(stats.averageDurationSeconds)).toBe(true);
  });

  it("reports zeros for an agent without conversations", async () => {
    const stats = (await call(sandbox(), `/v1/agents/${SEED_IDS.acmeAgentSimple}/stats`)).body;
    expect(stats).toEqual({
      agentId: SEED_IDS.acmeAgentSimple,
      totalConversations: 0,
      activeConversations: 0,
      byStatus: {},
      byChannel: {},
      averageDurationSeconds: 0,
      lastConversationAt: null,
    });
  });
});
