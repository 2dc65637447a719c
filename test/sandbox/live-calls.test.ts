import { describe, expect, it } from "vitest";
import { DEMO_KEYS, SEED_COUNTS, SEED_IDS } from "../../src/sandbox/seed-data.ts";
import type { WireConversation } from "../../src/sandbox/wire-shapes.ts";
import { manualClock } from "../support/clock.ts";
import { call, sandboxPerTest } from "./http.ts";

const start = sandboxPerTest();

const LIVE = `/v1/conversations/${SEED_IDS.acmeLiveConversation}/status`;

describe("live calls", () => {
  it("has calls IN_PROGRESS at start-up in both organizations", async () => {
    const s = await start({});
    const acme = await call(s, "/v1/conversations?status=IN_PROGRESS");
    const globex = await call(s, "/v1/conversations?status=IN_PROGRESS", { key: DEMO_KEYS.globex });
    expect(acme.body.total).toBe(SEED_COUNTS.acme.liveConversations);
    expect(globex.body.total).toBe(SEED_COUNTS.globex.liveConversations);
    const started = Date.parse(acme.body.items[0].startedAt);
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it("grows the duration of a call in progress with the clock", async () => {
    // The third seeded call started 70% of a call's length ago: 7 s of 10 s.
    const clock = manualClock();
    const s = await start({ callDurationMs: 10_000, callIntervalMs: 60_000, now: clock.now });
    const path = "/v1/conversations/cnv_acme_live_3/status";
    const first = (await call(s, path)).body;
    expect(first).toMatchObject({ status: "IN_PROGRESS", endedAt: null, duration: 7 });
    clock.advance(1_050);
    const second = (await call(s, path)).body;
    expect(second).toMatchObject({ status: "IN_PROGRESS", endedAt: null, duration: 8 });
    expect(second.startedAt).toBe(first.startedAt);
  });

  it("ends a call by itself after callDurationMs: SUCCESS, endedAt set, duration frozen", async () => {
    const clock = manualClock();
    const s = await start({ callDurationMs: 1_200, callIntervalMs: 60_000, now: clock.now });
    const during = (await call(s, LIVE)).body;
    expect(during).toMatchObject({ status: "IN_PROGRESS", endedAt: null });
    clock.advance(1_200);
    const after = (await call(s, LIVE)).body;
    expect(after).toEqual({
      id: SEED_IDS.acmeLiveConversation,
      status: "SUCCESS",
      startedAt: during.startedAt,
      endedAt: new Date(Date.parse(during.startedAt) + 1_200).toISOString(),
      duration: 1,
      agentId: during.agentId,
      contactId: during.contactId,
      direction: during.direction,
      channel: during.channel,
    });
    expect(during.agentId).toMatch(/^agt_/);
    clock.advance(500);
    expect((await call(s, LIVE)).body).toEqual(after);
  });

  it("starts a new call every callIntervalMs, so there is always one to follow", async () => {
    const clock = manualClock();
    const s = await start({ callDurationMs: 60_000, callIntervalMs: 250, now: clock.now });
    clock.advance(700);
    const answer = await call(s, "/v1/conversations?status=IN_PROGRESS");
    const fresh = answer.body.items.filter((c: WireConversation) => !c.id.includes("_live_"));
    expect(fresh.length).toBeGreaterThanOrEqual(2);
    for (const c of fresh) {
      expect(c.id).toMatch(/^cnv_[a-z0-9]{16}$/);
      expect(c.agentId).toMatch(/^agt_acme_/);
    }
    const status = await call(s, `/v1/conversations/${fresh[0].id}/status`);
    expect(status.body.status).toBe("IN_PROGRESS");
    const stats = await call(s, `/v1/agents/${fresh[0].agentId}/stats`);
    expect(stats.body.activeConversations).toBeGreaterThanOrEqual(1);
  });
});
