import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS, SEED_COUNTS, SEED_IDS } from "../../src/sandbox/seed-data.ts";
import {
  ConversationChannel,
  ConversationDirection,
  ConversationStatus,
} from "../../src/sandbox/vocabulary.ts";
import type { WireConversation } from "../../src/sandbox/wire-shapes.ts";
import { call, expectError, sandboxFor } from "./http.ts";

// Long calls and a slow schedule: the list stays still while these tests run.
const sandbox = sandboxFor("file", { callDurationMs: 3_600_000, callIntervalMs: 3_600_000 });
let all: WireConversation[];
beforeAll(async () => {
  const first = await call(sandbox(), "/v1/conversations?limit=100");
  const second = await call(sandbox(), "/v1/conversations?limit=100&offset=100");
  all = [...first.body.items, ...second.body.items];
});

async function list(query: string): Promise<WireConversation[]> {
  const answer = await call(sandbox(), `/v1/conversations?limit=100&${query}`);
  expect(answer.status, query).toBe(200);
  return answer.body.items;
}

describe("conversation list (limit/offset form)", () => {
  it("defaults to limit 50 and offset 0", async () => {
    const answer = await call(sandbox(), "/v1/conversations");
    expect(Object.keys(answer.body).sort()).toEqual(["items", "limit", "offset", "total"]);
    expect(answer.body).toMatchObject({
      total: SEED_COUNTS.acme.conversations,
      limit: 50,
      offset: 0,
    });
    expect(answer.body.items).toHaveLength(50);
  });

  it("sorts newest first (ties by id) and pages without overlap", async () => {
    expect(all).toHaveLength(SEED_COUNTS.acme.conversations);
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    const keys = all.map((c) => [Date.parse(c.startedAt), c.id] as const);
    const sorted = [...keys].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? -1 : 1));
    expect(keys).toEqual(sorted);
    const window = await call(sandbox(), "/v1/conversations?limit=7&offset=40");
    expect(window.body.items.map((c: WireConversation) => c.id)).toEqual(
      all.slice(40, 47).map((c) => c.id),
    );
    const past = await call(sandbox(), "/v1/conversations?offset=500");
    expect(past.body).toEqual({
      items: [],
      total: SEED_COUNTS.acme.conversations,
      limit: 50,
      offset: 500,
    });
  });

  it("covers every status, direction and channel, across exactly the first three agents", () => {
    const combos = new Set(all.map((c) => `${c.status}/${c.direction}/${c.channel}`));
    for (const status of ConversationStatus.options.filter((s) => s !== "IN_PROGRESS")) {
      for (const direction of ConversationDirection.options) {
        for (const channel of ConversationChannel.options) {
          expect(combos, `${status}/${direction}/${channel}`).toContain(
            `${status}/${direction}/${channel}`,
          );
        }
      }
    }
    expect(all.filter((c) => c.status === "IN_PROGRESS")).toHaveLength(
      SEED_COUNTS.acme.liveConversations,
    );
    expect(new Set(all.map((c) => c.agentId))).toEqual(
      new Set([SEED_IDS.acmeAgent, SEED_IDS.acmeAgentPaused, SEED_IDS.acmeAgentInactive]),
    );
    expect(new Set(all.map((c) => c.contactId)).size).toBe(SEED_COUNTS.acme.contacts);
  });

  it("filters by agent, contact, status, direction and channel, combined", async () => {
    const query = `agentId=${SEED_IDS.acmeAgent}&contactId=${SEED_IDS.acmeContact}&direction=INBOUND`;
    const expected = all.filter(
      (c) =>
        c.agentId === SEED_IDS.acmeAgent &&
        c.contactId === SEED_IDS.acmeContact &&
        c.direction === "INBOUND",
    );
    expect((await list(query)).map((c) => c.id)).toEqual(expected.map((c) => c.id));
    for (const status of ConversationStatus.options) {
      expect((await list(`status=${status}`)).map((c) => c.id)).toEqual(
        all.filter((c) => c.status === status).map((c) => c.id),
      );
    }
    const sms = await list("channel=SMS&status=FAILED");
    expect(sms.length).toBeGreaterThan(0);
    expect(sms.every((c) => c.channel === "SMS" && c.status === "FAILED")).toBe(true);
    expect(await list("agentId=agt_unknown")).toEqual([]);
  });

  it("searches the summary case-insensitively", async () => {
    const found = await list("search=RESCHEDULE");
    expect(found.length).toBeGreaterThan(0);
    expect(found.map((c) => c.id)).toEqual(
      all.filter((c) => c.summary?.toLowerCase().includes("reschedule")).map((c) => c.id),
    );
    const answer = await call(sandbox(), "/v1/conversations?search=zzz-nothing");
    expect(answer.body).toMatchObject({ items: [], total: 0 });
  });

  it("filters startedAt by startDate and endDate, both inclusive", async () => {
    const sample = all[60] as WireConversation;
    const exact = await list(`startDate=${sample.startedAt}&endDate=${sample.startedAt}`);
    expect(exact.map((c) => c.id)).toEqual([sample.id]);
    const from = "2026-01-10T00:00:00Z";
    const to = "2026-01-15T00:00:00%2B01:00";
    const ranged = await list(`startDate=${from}&endDate=${to}`);
    const toMs = Date.parse("2026-01-15T00:00:00+01:00");
    expect(ranged.map((c) => c.id)).toEqual(
      all
        .filter(
          (c) => Date.parse(c.startedAt) >= Date.parse(from) && Date.parse(c.startedAt) <= toMs,
        )
        .map((c) => c.id),
    );
    expect(ranged.length).toBeGreaterThan(5);
  });

  it("shapes items with ids, enums, integer durations and ISO timestamps", () => {
    const ended = all.find((c) => c.id === SEED_IDS.acmeConversation);
    expect(ended).toMatchObject({
      agentId: SEED_IDS.acmeAgent,
      contactId: SEED_IDS.acmeContact,
      status: "SUCCESS",
    });
    for (const c of all) {
      expect(c.id).toMatch(/^cnv_/);
      expect(Number.isInteger(c.duration)).toBe(true);
      expect(new Date(c.startedAt).toISOString()).toBe(c.startedAt);
      if (c.status === "PENDING" || c.status === "IN_PROGRESS") expect(c.endedAt).toBeNull();
      else expect(Date.parse(c.endedAt ?? "")).toBe(Date.parse(c.startedAt) + c.duration * 1000);
    }
  });
});

describe("conversation status (operation 8)", () => {
  it("returns id, duration, startedAt, endedAt, plus the status and the parties", async () => {
    const answer = await call(sandbox(), `/v1/conversations/${SEED_IDS.acmeConversation}/status`);
    const item = all.find((c) => c.id === SEED_IDS.acmeConversation) as WireConversation;
    expect(answer.body).toEqual({
      id: item.id,
      duration: item.duration,
      startedAt: item.startedAt,
      endedAt: item.endedAt,
      status: "SUCCESS",
      agentId: item.agentId,
      contactId: item.contactId,
      direction: item.direction,
      channel: item.channel,
    });
  });

  it("answers 404 for an unknown conversation", async () => {
    expectError(await call(sandbox(), "/v1/conversations/cnv_nope/status"), 404, "NOT_FOUND");
  });
});

describe("contact stats (operation 10)", () => {
  it("computes the stats from the contact's conversations", async () => {
    const mine = all.filter((c) => c.contactId === SEED_IDS.acmeContact);
    const answer = await call(sandbox(), `/v1/contacts/${SEED_IDS.acmeContact}/stats`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      contactId: SEED_IDS.acmeContact,
      totalConversations: mine.length,
      inbound: mine.filter((c) => c.direction === "INBOUND").length,
      outbound: mine.filter((c) => c.direction === "OUTBOUND").length,
      lastInteractionAt: mine[0]?.startedAt,
    });
    const globex = await call(sandbox(), `/v1/contacts/${SEED_IDS.globexContact}/stats`, {
      key: DEMO_KEYS.globex,
    });
    expect(globex.body.totalConversations).toBeGreaterThan(0);
  });
});
