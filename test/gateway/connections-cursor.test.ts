import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SEED_COUNTS } from "../../src/sandbox/seed-data.ts";
import { manualClock } from "../support/clock.ts";
import {
  type ListRoute,
  type ListUpstream,
  startListUpstream,
  upstreamCursorAt,
} from "../support/list-upstream.ts";
import {
  connectionQuery,
  errorCodes,
  fakeCampaigns,
  fetchConnection,
  pagesForward,
  summary,
} from "./connection-queries.ts";
import { ACME, type Harness, startHarness } from "./harness.ts";
import { INVALID_CURSOR } from "./sandbox-answers.ts";

/**
 * Contract §4 for the cursor form, through /graphql over HTTP: `campaigns` against the sandbox
 * (and a purpose-built upstream for short pages and cursor rejections), with exact requests.
 */

const CAMPAIGNS = connectionQuery("campaigns", "CampaignFilter", true);

/** The upstream cursor a gateway cursor wraps, as the next request must carry it. */
function upstreamCursorOf(gatewayCursor: string | null): string {
  // The payload before the mac is readable (cursors are signed, not encrypted).
  const payload = (gatewayCursor ?? "").split(".")[0] ?? "";
  const place = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { u?: unknown };
  if (typeof place.u !== "string") throw new Error("no upstream cursor");
  return encodeURIComponent(place.u);
}

describe("campaigns against the sandbox (cursor upstream)", () => {
  let harness: Harness;
  let campaigns: Array<{ id: string; status: string }>;
  const list = (variables: Record<string, unknown>) =>
    fetchConnection(harness, CAMPAIGNS, "campaigns", variables);

  beforeAll(async () => {
    harness = await startHarness();
    const response = await fetch(`${harness.sandbox.url}/v1/campaigns?limit=100`, {
      headers: { authorization: ACME },
    });
    campaigns = ((await response.json()) as { items: typeof campaigns }).items;
  });
  afterAll(() => harness.close());
  beforeEach(() => {
    harness.takeUpstreamRequests();
  });

  it("serves the default 25 from the first upstream page, without a total", async () => {
    expect(summary(await list({}))).toEqual({
      ids: campaigns.slice(0, 25).map((c) => c.id),
      hasNextPage: true,
      hasPreviousPage: false,
      totalCount: null,
    });
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/campaigns?limit=25"]);
  });

  it("pages through all 30 in three pages of 10 by the upstream's cursors", async () => {
    expect(campaigns).toHaveLength(SEED_COUNTS.acme.campaigns);
    const pages = await pagesForward(harness, CAMPAIGNS, "campaigns", 10);
    expect(pages.map((page) => summary(page))).toEqual(
      [0, 1, 2].map((index) => ({
        ids: campaigns.slice(index * 10, index * 10 + 10).map((c) => c.id),
        hasNextPage: index < 2,
        hasPreviousPage: index > 0,
        totalCount: null,
      })),
    );
    expect(harness.takeUpstreamRequests()).toEqual([
      "GET /v1/campaigns?limit=10",
      `GET /v1/campaigns?cursor=${upstreamCursorOf(pages[0]?.pageInfo.endCursor ?? null)}&limit=10`,
      `GET /v1/campaigns?cursor=${upstreamCursorOf(pages[1]?.pageInfo.endCursor ?? null)}&limit=10`,
    ]);
  });

  it("resumes from any edge, not only the last", async () => {
    const first = await list({ first: 10 });
    const next = await list({ first: 10, after: first.edges[3]?.cursor });
    expect(summary(next).ids).toEqual(campaigns.slice(4, 14).map((c) => c.id));
    // The first upstream page again, asked long enough to hold the four seen plus ten more.
    expect(harness.takeUpstreamRequests()).toEqual([
      "GET /v1/campaigns?limit=10",
      "GET /v1/campaigns?limit=14",
    ]);
  });

  it("filters by status, sending the filter after the page parameters", async () => {
    const completed = campaigns.filter((c) => c.status === "COMPLETED");
    expect(completed.length).toBeGreaterThan(3);
    const filter = { status: "COMPLETED" };
    const first = await list({ first: 3, filter });
    const rest = await list({ first: 100, after: first.pageInfo.endCursor, filter });
    expect([...summary(first).ids, ...summary(rest).ids]).toEqual(completed.map((c) => c.id));
    expect(summary(rest)).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(harness.takeUpstreamRequests()).toEqual([
      "GET /v1/campaigns?limit=3&status=COMPLETED",
      `GET /v1/campaigns?cursor=${upstreamCursorOf(first.pageInfo.endCursor)}&limit=100&status=COMPLETED`,
    ]);
  });
});

describe("upstream failures of campaign requests", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(() => harness.close());

  async function endCursorOfFirstPage(): Promise<string> {
    const page = await fetchConnection(harness, CAMPAIGNS, "campaigns", { first: 5 });
    harness.takeUpstreamRequests();
    return page.pageInfo.endCursor as string;
  }

  it("keeps a 4xx answering the first page (no upstream cursor) as the status says", async () => {
    harness.sandbox.injectFault({ path: "/v1/campaigns", status: 422 });
    const { body } = await harness.graphql(CAMPAIGNS, { first: 5 });
    expect(errorCodes(body)).toEqual(["VALIDATION_FAILED"]);
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/campaigns?limit=5"]);
  });

  it("turns a 410 from the sandbox answering a cursor request into CURSOR_EXPIRED", async () => {
    const after = await endCursorOfFirstPage();
    harness.sandbox.injectFault({ path: "/v1/campaigns", status: 410 });
    const { body } = await harness.graphql(CAMPAIGNS, { first: 5, after });
    expect(body.errors?.[0]?.extensions).toMatchObject({
      code: "CURSOR_EXPIRED",
      upstream: { status: 410 },
    });
  });

  it("keeps a 5xx answering a cursor request as UPSTREAM_ERROR, after the retries", async () => {
    const after = await endCursorOfFirstPage();
    harness.sandbox.injectFault({ path: "/v1/campaigns", status: 503, times: 3 });
    const { body } = await harness.graphql(CAMPAIGNS, { first: 5, after });
    expect(errorCodes(body)).toEqual(["UPSTREAM_ERROR"]);
    expect(harness.takeUpstreamRequests()).toHaveLength(3);
  });
});

describe("an upstream cursor past the sandbox's TTL", () => {
  it("is CURSOR_EXPIRED with the upstream's INVALID_CURSOR", async () => {
    const clock = manualClock();
    const harness = await startHarness({ sandbox: { cursorTtlMs: 40, now: clock.now } });
    try {
      const first = await fetchConnection(harness, CAMPAIGNS, "campaigns", { first: 5 });
      clock.advance(41);
      const { status, body } = await harness.graphql(CAMPAIGNS, {
        first: 5,
        after: first.pageInfo.endCursor,
      });
      expect(status).toBe(200);
      expect(body.data).toEqual({ campaigns: null });
      expect(body.errors?.[0]?.extensions).toMatchObject({
        code: "CURSOR_EXPIRED",
        upstream: INVALID_CURSOR,
      });
      expect(harness.takeUpstreamRequests()).toEqual([
        "GET /v1/campaigns?limit=5",
        `GET /v1/campaigns?cursor=${upstreamCursorOf(first.pageInfo.endCursor)}&limit=5`,
      ]);
    } finally {
      await harness.close();
    }
  });
});

describe("campaigns against a purpose-built cursor upstream", () => {
  const route: ListRoute = {
    form: "cursor",
    items: fakeCampaigns(30),
    withTotal: false,
    rejectionCode: "CURSOR_REJECTED",
  };
  let upstream: ListUpstream;
  let harness: Harness;
  const list = (variables: Record<string, unknown>) =>
    fetchConnection(harness, CAMPAIGNS, "campaigns", variables);

  beforeAll(async () => {
    upstream = await startListUpstream({ "/v1/campaigns": route });
    harness = await startHarness({ upstream: { baseUrl: upstream.url } });
  });
  afterAll(async () => {
    await harness.close();
    await upstream.close();
  });
  beforeEach(() => {
    route.maxItems = undefined;
    route.rejectCursorsWith = undefined;
    route.withTotal = false;
    upstream.takeRequests();
  });

  it("reports a page shorter than asked (a tighter bound) and continues after it", async () => {
    route.maxItems = 7;
    const pages = await pagesForward(harness, CAMPAIGNS, "campaigns", 10);
    expect(pages.map((page) => summary(page).ids)).toEqual(
      [0, 7, 14, 21, 28].map((start) =>
        fakeCampaigns(30)
          .slice(start, start + 7)
          .map((c) => c.id),
      ),
    );
    expect(pages.map((page) => page.pageInfo.hasNextPage)).toEqual([true, true, true, true, false]);
    expect(upstream.takeRequests()).toEqual([
      "GET /v1/campaigns?limit=10",
      ...[7, 14, 21, 28].map((at) => `GET /v1/campaigns?cursor=${upstreamCursorAt(at)}&limit=10`),
    ]);
  });

  it("reports the total when a cursor-form answer carries one", async () => {
    route.withTotal = true;
    expect(summary(await list({ first: 5 }))).toMatchObject({ totalCount: 30, hasNextPage: true });
    expect(upstream.takeRequests()).toEqual(["GET /v1/campaigns?limit=5"]);
  });

  async function cursorAt25(): Promise<string> {
    const page = await list({ first: 25 });
    upstream.takeRequests();
    return page.pageInfo.endCursor as string;
  }

  it.each([400, 404, 410, 422])(
    "turns a %i answer to an upstream cursor into CURSOR_EXPIRED",
    async (status) => {
      const after = await cursorAt25();
      route.rejectCursorsWith = status;
      const { body } = await harness.graphql(CAMPAIGNS, { first: 5, after });
      expect(body.errors?.[0]?.extensions).toMatchObject({
        code: "CURSOR_EXPIRED",
        upstream: { status, code: "CURSOR_REJECTED" },
      });
      expect(upstream.takeRequests()).toEqual([
        `GET /v1/campaigns?cursor=${upstreamCursorAt(25)}&limit=5`,
      ]);
    },
  );

  it.each([
    [401, "UNAUTHENTICATED"],
    [403, "FORBIDDEN"],
    [429, "RATE_LIMITED"],
  ])("keeps a %i answer to an upstream cursor as %s", async (status, code) => {
    const after = await cursorAt25();
    route.rejectCursorsWith = status;
    const { body } = await harness.graphql(CAMPAIGNS, { first: 5, after });
    expect(errorCodes(body)).toEqual([code]);
    expect(upstream.takeRequests()).toEqual([
      `GET /v1/campaigns?cursor=${upstreamCursorAt(25)}&limit=5`,
    ]);
  });
});

describe("campaigns against a sandbox whose endpoint sets a tighter bound (7)", () => {
  let harness: Harness;
  const _list = (variables: Record<string, unknown>) =>
    fetchConnection(harness, CAMPAIGNS, "campaigns", variables);

  beforeAll(async () => {
    harness = await startHarness({ sandbox: { campaignsMaxLimit: 7 } });
  });
  afterAll(() => harness.close());

  it("reports the short pages as they come and pages through every campaign", async () => {
    const pages = await pagesForward(harness, CAMPAIGNS, "campaigns", 10);
    const seen = pages.flatMap((page) => summary(page).ids);
    const sizes = pages.map((page) => summary(page).ids.length);
    expect(sizes).toEqual([7, 7, 7, 7, 2]);
    expect(new Set(seen).size).toBe(SEED_COUNTS.acme.campaigns);
    expect(seen).toHaveLength(SEED_COUNTS.acme.campaigns);
  });
});
