import { describe, expect, it } from "vitest";
import { DEMO_KEYS, SEED_COUNTS, SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import type { WireCampaign } from "../../src/sandbox/wire-shapes.ts";
import { manualClock } from "../support/clock.ts";
import { call, expectError, sandboxPerTest } from "./http.ts";

const start = sandboxPerTest();

const ids = (items: WireCampaign[]) => items.map((c) => c.id);

describe("campaign list (cursor form)", () => {
  it("pages 25 then 5, oldest first, with nextCursor null on the last page", async () => {
    const s = await start();
    const first = await call(s, "/v1/campaigns");
    expect(Object.keys(first.body).sort()).toEqual(["items", "nextCursor"]);
    expect(first.body.items).toHaveLength(25);
    expect(first.body.nextCursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const second = await call(s, `/v1/campaigns?cursor=${first.body.nextCursor}`);
    expect(second.body.items).toHaveLength(SEED_COUNTS.acme.campaigns - 25);
    expect(second.body.nextCursor).toBeNull();
    const all = [...first.body.items, ...second.body.items];
    expect(new Set(ids(all)).size).toBe(SEED_COUNTS.acme.campaigns);
    const keys = all.map((c) => `${c.createdAt}|${c.id}`);
    expect(keys).toEqual([...keys].sort());
    expect(new Set(all.map((c) => c.status)).size).toBeGreaterThanOrEqual(4);
  });

  it("issues no cursor when the page ends exactly at the last item", async () => {
    const s = await start();
    const answer = await call(s, `/v1/campaigns?limit=${SEED_COUNTS.acme.campaigns}`);
    expect(answer.body.items).toHaveLength(SEED_COUNTS.acme.campaigns);
    expect(answer.body.nextCursor).toBeNull();
  });

  it("filters by status and keeps the filter across pages", async () => {
    const s = await start();
    const first = await call(s, "/v1/campaigns?status=COMPLETED&limit=2");
    expect(first.body.items.every((c: WireCampaign) => c.status === "COMPLETED")).toBe(true);
    const rest = await call(
      s,
      `/v1/campaigns?status=COMPLETED&limit=100&cursor=${first.body.nextCursor}`,
    );
    const completed = [...first.body.items, ...rest.body.items];
    const everything = (await call(s, "/v1/campaigns?limit=100")).body.items as WireCampaign[];
    expect(ids(completed)).toEqual(ids(everything.filter((c) => c.status === "COMPLETED")));
  });

  it("accepts another limit with the same cursor", async () => {
    const s = await start();
    const first = await call(s, "/v1/campaigns?limit=5");
    const next = await call(s, `/v1/campaigns?limit=3&cursor=${first.body.nextCursor}`);
    const everything = (await call(s, "/v1/campaigns?limit=100")).body.items;
    expect(ids(next.body.items)).toEqual(ids(everything.slice(5, 8)));
  });

  it("neither skips nor repeats items when campaigns are deleted between pages", async () => {
    const s = await start();
    const everything = (await call(s, "/v1/campaigns?limit=100")).body.items as WireCampaign[];
    const first = await call(s, "/v1/campaigns?limit=10");
    // Including the last item served (index 9): the cursor holds its keyset, not its existence.
    const deletable = everything.filter((c, i) => i >= 8 && i <= 11 && c.status !== "RUNNING");
    for (const c of deletable) {
      expect((await call(s, `/v1/campaigns/${c.id}`, { method: "DELETE" })).status).toBe(204);
    }
    const next = await call(s, `/v1/campaigns?limit=100&cursor=${first.body.nextCursor}`);
    const gone = new Set(ids(deletable));
    expect(ids(next.body.items)).toEqual(ids(everything.slice(10).filter((c) => !gone.has(c.id))));
  });

  it("serves a page shorter than asked under its own tighter bound, with a cursor to the rest", async () => {
    const s = await start({ campaignsMaxLimit: 10 });
    const short = await call(s, "/v1/campaigns?limit=25");
    expect(short.status).toBe(200);
    expect(short.body.items).toHaveLength(10);
    expect(short.body.nextCursor).toEqual(expect.any(String));
    const rest = await call(s, `/v1/campaigns?cursor=${short.body.nextCursor}&limit=100`);
    expect(rest.body.items[0].id).not.toBe(short.body.items[9].id);
    expect(rest.body.items).toHaveLength(10);
    const details = expectError(await call(s, "/v1/campaigns?limit=101"), 400, "INVALID_PARAMETER");
    expect(details).toEqual({
      location: "query",
      parameter: "limit",
      reason: "must be an integer from 1 to 100",
    });
  });
});

describe("cursor rejection (400 INVALID_CURSOR)", () => {
  async function firstCursor(s: Sandbox, query = ""): Promise<string> {
    return (await call(s, `/v1/campaigns?limit=5${query}`)).body.nextCursor;
  }

  it("rejects an altered cursor", async () => {
    const s = await start();
    const cursor = await firstCursor(s);
    const [data = "", signature = ""] = cursor.split(".");
    const payload = JSON.parse(Buffer.from(data, "base64url").toString());
    payload.after.id = "cmp_acme_01";
    const forged = `${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${signature}`;
    for (const bad of [forged, `${cursor}x`, cursor.slice(1), "garbage", ""]) {
      const answer = await call(s, `/v1/campaigns?cursor=${encodeURIComponent(bad)}`);
      expect(expectError(answer, 400, "INVALID_CURSOR").parameter, bad).toBe("cursor");
    }
  });

  it("rejects a cursor from another organization", async () => {
    const s = await start();
    const cursor = await firstCursor(s);
    const answer = await call(s, `/v1/campaigns?cursor=${cursor}`, { key: DEMO_KEYS.globex });
    expectError(answer, 400, "INVALID_CURSOR");
    // The read-only key acts for the same organization: its cursor is valid.
    const readonly = await call(s, `/v1/campaigns?cursor=${cursor}`, {
      key: DEMO_KEYS.acmeReadonly,
    });
    expect(readonly.status).toBe(200);
  });

  it("rejects a cursor reused with other filters", async () => {
    const s = await start();
    const unfiltered = await firstCursor(s);
    expectError(
      await call(s, `/v1/campaigns?status=COMPLETED&cursor=${unfiltered}`),
      400,
      "INVALID_CURSOR",
    );
    const filtered = (await call(s, "/v1/campaigns?status=COMPLETED&limit=1")).body.nextCursor;
    expectError(await call(s, `/v1/campaigns?cursor=${filtered}`), 400, "INVALID_CURSOR");
    expectError(
      await call(s, `/v1/campaigns?status=FAILED&cursor=${filtered}`),
      400,
      "INVALID_CURSOR",
    );
  });

  it("rejects a cursor from another sandbox (another secret)", async () => {
    const s = await start();
    const other = await startSandbox();
    try {
      const cursor = (await call(other, "/v1/campaigns?limit=5")).body.nextCursor;
      expectError(await call(s, `/v1/campaigns?cursor=${cursor}`), 400, "INVALID_CURSOR");
    } finally {
      await other.close();
    }
  });

  it("rejects a cursor older than cursorTtlMs", async () => {
    const clock = manualClock();
    const s = await start({ cursorTtlMs: 150, now: clock.now });
    const cursor = await firstCursor(s);
    expect((await call(s, `/v1/campaigns?cursor=${cursor}`)).status).toBe(200);
    clock.advance(151);
    const details = expectError(
      await call(s, `/v1/campaigns?cursor=${cursor}`),
      400,
      "INVALID_CURSOR",
    );
    expect(details.reason).toBe("expired");
  });
});

describe("campaign operations", () => {
  it("gets one campaign (assumed GET /v1/campaigns/{id})", async () => {
    const s = await start();
    const answer = await call(s, `/v1/campaigns/${SEED_IDS.acmeCampaignWithFailedRows}`);
    expect(answer.body).toEqual({
      id: SEED_IDS.acmeCampaignWithFailedRows,
      name: "Flu shot reminders",
      status: "COMPLETED",
      agentId: SEED_IDS.acmeAgentPaused,
      totalRows: 200,
      completedRows: 188,
      failedRows: 12,
      scheduledAt: "2026-01-06T15:00:00.000Z",
      createdAt: "2026-01-06T05:00:00.000Z",
      updatedAt: "2026-01-07T21:00:00.000Z",
    });
  });

  it("deletes a campaign with 204 and no body; it is then 404", async () => {
    const s = await start();
    const path = `/v1/campaigns/${SEED_IDS.acmeCampaignWithoutFailedRows}`;
    const answer = await call(s, path, { method: "DELETE" });
    expect(answer.status).toBe(204);
    expect(answer.body).toBeUndefined();
    expect(answer.headers.get("x-request-id")).toMatch(/^req_/);
    expectError(await call(s, path), 404, "NOT_FOUND");
    expectError(await call(s, path, { method: "DELETE" }), 404, "NOT_FOUND");
    expect((await call(s, "/v1/campaigns?limit=100")).body.items).toHaveLength(
      SEED_COUNTS.acme.campaigns - 1,
    );
  });

  it("answers 409 CONFLICT when deleting a RUNNING campaign", async () => {
    const s = await start();
    const path = `/v1/campaigns/${SEED_IDS.acmeCampaignRunning}`;
    const details = expectError(await call(s, path, { method: "DELETE" }), 409, "CONFLICT");
    expect(details).toEqual({ id: SEED_IDS.acmeCampaignRunning, status: "RUNNING" });
    expect((await call(s, path)).status).toBe(200);
  });

  it("retries failed rows: 200, failedRows back to 0, status RUNNING", async () => {
    const s = await start();
    const path = `/v1/campaigns/${SEED_IDS.acmeCampaignWithFailedRows}`;
    const answer = await call(s, `${path}/retry`, { method: "POST" });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      campaignId: SEED_IDS.acmeCampaignWithFailedRows,
      retriedRows: 12,
      status: "RUNNING",
    });
    const campaign = (await call(s, path)).body;
    expect(campaign).toMatchObject({ status: "RUNNING", failedRows: 0, completedRows: 188 });
    expect(Date.now() - Date.parse(campaign.updatedAt)).toBeLessThan(10_000);
    expectError(await call(s, `${path}/retry`, { method: "POST" }), 409, "CONFLICT");
  });

  it("answers 409 CONFLICT when retrying a campaign without failed rows", async () => {
    const s = await start();
    const path = `/v1/campaigns/${SEED_IDS.acmeCampaignWithoutFailedRows}/retry`;
    const details = expectError(await call(s, path, { method: "POST" }), 409, "CONFLICT");
    expect(details).toEqual({ id: SEED_IDS.acmeCampaignWithoutFailedRows, failedRows: 0 });
  });
});
