import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ListRoute, type ListUpstream, startListUpstream } from "../support/list-upstream.ts";
import {
  connectionQuery,
  errorCodes,
  fakeAgents,
  fakeCampaigns,
  fetchConnection,
  pagesForward,
  summary,
} from "./connection-queries.ts";
import { type Harness, startHarness } from "./harness.ts";

/**
 * Contract §4 "the adapter recognises the page form from the response shape", and totals the
 * upstream does not tell, through /graphql against a purpose-built upstream whose routes are
 * swapped per test.
 */

const routes: Record<string, ListRoute> = {};
let upstream: ListUpstream;
let harness: Harness;

beforeAll(async () => {
  upstream = await startListUpstream(routes);
  harness = await startHarness({ upstream: { baseUrl: upstream.url } });
});
afterAll(async () => {
  await harness.close();
  await upstream.close();
});
beforeEach(() => {
  for (const path of Object.keys(routes)) delete routes[path];
  upstream.takeRequests();
});

const AGENTS = connectionQuery("agents");
const CAMPAIGNS = connectionQuery("campaigns", "CampaignFilter", true);
const CONVERSATIONS = connectionQuery("conversations", "ConversationFilter");

/** Pages forward with `first` until hasNextPage is false; every page's summary. */
async function walk(query: string, field: string, first: number) {
  const pages = await pagesForward(harness, query, field, first);
  return pages.map((page) => summary(page));
}

const ids = (items: Array<{ id: string }>, from: number, to: number) =>
  items.slice(from, to).map((item) => item.id);

describe("a list whose upstream answers in another form than assumed", () => {
  it("pages agents forward when /v1/agents answers in cursor form", async () => {
    const agents = fakeAgents(45);
    routes["/v1/agents"] = { form: "cursor", items: agents, withTotal: false };
    const pages = await walk(AGENTS, "agents", 20);
    expect(pages).toEqual([
      { ids: ids(agents, 0, 20), hasNextPage: true, hasPreviousPage: false, totalCount: null },
      { ids: ids(agents, 20, 40), hasNextPage: true, hasPreviousPage: true, totalCount: null },
      { ids: ids(agents, 40, 45), hasNextPage: false, hasPreviousPage: true, totalCount: null },
    ]);
    // The page request is answered with the upstream's default 25; the second page re-reads the
    // first upstream page long enough for the 20 seen plus 20, then follows the upstream cursor.
    expect(upstream.takeRequests()).toEqual([
      "GET /v1/agents?page=1&pageSize=21",
      "GET /v1/agents?limit=40",
      "GET /v1/agents?cursor=YXQ6NDA&limit=20",
    ]);
  });

  it("refuses `last` on agents once /v1/agents turns out to page by cursor", async () => {
    routes["/v1/agents"] = { form: "cursor", items: fakeAgents(45), withTotal: true };
    const { body } = await harness.graphql(AGENTS, { last: 5 });
    expect(errorCodes(body)).toEqual(["BAD_USER_INPUT"]);
    expect(body.errors?.[0]?.message).toMatch(/agents list pages forward only/);
    // Only the answer can tell the form: one request, then no more.
    expect(upstream.takeRequests()).toEqual(["GET /v1/agents?page=1&pageSize=5"]);
  });

  it("pages campaigns when /v1/campaigns answers in page form", async () => {
    const campaigns = fakeCampaigns(30);
    routes["/v1/campaigns"] = { form: "page", items: campaigns };
    const pages = await walk(CAMPAIGNS, "campaigns", 10);
    expect(pages).toEqual([
      { ids: ids(campaigns, 0, 10), hasNextPage: true, hasPreviousPage: false, totalCount: 30 },
      { ids: ids(campaigns, 10, 20), hasNextPage: true, hasPreviousPage: true, totalCount: 30 },
      { ids: ids(campaigns, 20, 30), hasNextPage: false, hasPreviousPage: true, totalCount: 30 },
    ]);
    // `limit` is ignored by a page-form endpoint: its default page of 20 holds the first ten.
    expect(upstream.takeRequests()).toEqual([
      "GET /v1/campaigns?limit=10",
      "GET /v1/campaigns?page=1&pageSize=21",
      "GET /v1/campaigns?page=2&pageSize=16",
    ]);
  });

  it("answers CURSOR_EXPIRED when the list turned to cursor form under a position cursor", async () => {
    routes["/v1/agents"] = { form: "page", items: fakeAgents(45) };
    const first = await fetchConnection(harness, AGENTS, "agents", { first: 20 });
    routes["/v1/agents"] = { form: "cursor", items: fakeAgents(45), withTotal: true };
    const { body } = await harness.graphql(AGENTS, { first: 20, after: first.pageInfo.endCursor });
    expect(errorCodes(body)).toEqual(["CURSOR_EXPIRED"]);
    expect(upstream.takeRequests()).toEqual([
      "GET /v1/agents?page=1&pageSize=21",
      "GET /v1/agents?page=1&pageSize=41",
    ]);
  });
});

describe("totals the upstream does not tell", () => {
  it("reports totalCount null and finds the end from a short page", async () => {
    const agents = fakeAgents(45);
    routes["/v1/agents"] = { form: "page", items: agents, withTotal: false };
    expect(await walk(AGENTS, "agents", 20)).toEqual([
      { ids: ids(agents, 0, 20), hasNextPage: true, hasPreviousPage: false, totalCount: null },
      { ids: ids(agents, 20, 40), hasNextPage: true, hasPreviousPage: true, totalCount: null },
      { ids: ids(agents, 40, 45), hasNextPage: false, hasPreviousPage: true, totalCount: null },
    ]);
    expect(upstream.takeRequests()).toEqual([
      "GET /v1/agents?page=1&pageSize=21",
      "GET /v1/agents?page=1&pageSize=41",
      "GET /v1/agents?page=2&pageSize=31",
    ]);
  });

  it("refuses `last` without `before` when there is no total to count back from", async () => {
    routes["/v1/agents"] = { form: "page", items: fakeAgents(45), withTotal: false };
    const { body } = await harness.graphql(AGENTS, { last: 5 });
    expect(errorCodes(body)).toEqual(["BAD_USER_INPUT"]);
    expect(upstream.takeRequests()).toEqual(["GET /v1/agents?page=1&pageSize=5"]);
  });

  it("reports totalCount null on the offset form without `total`", async () => {
    routes["/v1/conversations"] = {
      form: "offset",
      items: Array.from({ length: 12 }, (_, index) => ({ id: `cnv_fake_${index}` })),
      withTotal: false,
    };
    const pages = await walk(CONVERSATIONS, "conversations", 5);
    expect(pages.map((page) => [page.ids.length, page.hasNextPage, page.totalCount])).toEqual([
      [5, true, null],
      [5, true, null],
      [2, false, null],
    ]);
  });
});

describe("pages shorter than asked on the position forms", () => {
  it("reports a limit/offset page cut by a tighter bound and continues after it", async () => {
    const items = Array.from({ length: 20 }, (_, index) => ({ id: `cnv_fake_${index}` }));
    routes["/v1/conversations"] = { form: "offset", items, maxItems: 7 };
    const pages = await walk(CONVERSATIONS, "conversations", 10);
    expect(pages.map((page) => [page.ids, page.hasNextPage])).toEqual([
      [
        [
          "cnv_fake_0",
          "cnv_fake_1",
          "cnv_fake_2",
          "cnv_fake_3",
          "cnv_fake_4",
          "cnv_fake_5",
          "cnv_fake_6",
        ],
        true,
      ],
      [
        ["cnv_fake_7", "cnv_fake_8", "cnv_fake_9", "cnv_fake_10", "cnv_fake_11", "cnv_fake_12"],
        true,
      ],
      [
        ["cnv_fake_13", "cnv_fake_14", "cnv_fake_15", "cnv_fake_16", "cnv_fake_17", "cnv_fake_18"],
        true,
      ],
      [["cnv_fake_19"], false],
    ]);
    expect(upstream.takeRequests()).toEqual([
      "GET /v1/conversations?limit=11&offset=0",
      "GET /v1/conversations?limit=12&offset=6",
      "GET /v1/conversations?limit=12&offset=12",
      "GET /v1/conversations?limit=12&offset=18",
    ]);
  });
});

describe("the page form's hard case for `last` without `before`", () => {
  it("reads the tail in two neighbouring pages when no single page of ≤ 100 holds it", async () => {
    const agents = fakeAgents(250);
    routes["/v1/agents"] = { form: "page", items: agents };
    const page = await fetchConnection(harness, AGENTS, "agents", { last: 100 });
    expect(summary(page)).toEqual({
      ids: ids(agents, 150, 250),
      hasNextPage: false,
      hasPreviousPage: true,
      totalCount: 250,
    });
    // The total is unknown until the first answer; items 150..249 then span pages 2 and 3 of
    // 100, and no larger page size is allowed. README: "three requests in that worst case".
    const [probe, ...tail] = upstream.takeRequests();
    expect(probe).toBe("GET /v1/agents?page=1&pageSize=100");
    expect(tail.sort()).toEqual([
      "GET /v1/agents?page=4&pageSize=50",
      "GET /v1/agents?page=5&pageSize=50",
    ]);
  });
});
