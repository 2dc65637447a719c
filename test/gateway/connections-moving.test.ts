import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ListRoute, type ListUpstream, startListUpstream } from "../support/list-upstream.ts";
import {
  type ConnectionResult,
  connectionQuery,
  errorCodes,
  fakeConversations,
  fetchConnection,
  summary,
} from "./connection-queries.ts";
import { type Harness, startHarness } from "./harness.ts";

/**
 * Moving lists through /graphql against a purpose-built upstream: operation 7 answered without any
 * echo of `limit`/`offset`, a conversation list that gains calls at the top between pages, and
 * cursors a client forged or another instance signed.
 */

const SECRET = "a-shared-cursor-secret-of-32-chars-or-more";
const routes: Record<string, ListRoute> = {};
let upstream: ListUpstream;
let harness: Harness;

beforeAll(async () => {
  upstream = await startListUpstream(routes);
  harness = await startHarness({
    upstream: { baseUrl: upstream.url },
    gateway: { cursorSecret: SECRET },
  });
});
afterAll(async () => {
  await harness.close();
  await upstream.close();
});
beforeEach(() => {
  for (const path of Object.keys(routes)) delete routes[path];
  upstream.takeRequests();
});

const CONVERSATIONS = connectionQuery("conversations", "ConversationFilter");
const page = (variables: Record<string, unknown>, on: Harness = harness) =>
  fetchConnection(on, CONVERSATIONS, "conversations", variables);
const ids = (items: Array<{ id: string }>) => items.map((item) => item.id);

describe("operation 7 answered with items only, echoing neither limit nor offset", () => {
  it("pages from where each request started, with the total when there is one", async () => {
    const items = fakeConversations(25);
    routes["/v1/conversations"] = { form: "offset", items, echo: false };
    const first = await page({ first: 10 });
    expect(summary(first)).toEqual({
      ids: ids(items.slice(0, 10)),
      hasNextPage: true,
      hasPreviousPage: false,
      totalCount: 25,
    });
    const second = await page({ first: 10, after: first.pageInfo.endCursor });
    expect(summary(second).ids).toEqual(ids(items.slice(10, 20)));
    const back = await page({ last: 5, before: second.pageInfo.startCursor });
    expect(summary(back).ids).toEqual(ids(items.slice(5, 10)));
    expect(upstream.takeRequests()).toEqual([
      "GET /v1/conversations?limit=11&offset=0",
      "GET /v1/conversations?limit=12&offset=9",
      "GET /v1/conversations?limit=6&offset=5",
    ]);
  });

  it("reports totalCount null without a total, hasNextPage exact from one look-ahead item", async () => {
    const items = fakeConversations(20);
    routes["/v1/conversations"] = { form: "offset", items, echo: false, withTotal: false };
    const first = await page({ first: 10 });
    expect(summary(first)).toMatchObject({ hasNextPage: true, totalCount: null });
    const last = await page({ first: 10, after: first.pageInfo.endCursor });
    expect(summary(last)).toEqual({
      ids: ids(items.slice(10, 20)),
      hasNextPage: false,
      hasPreviousPage: true,
      totalCount: null,
    });
  });
});

describe("a conversation list that gains calls at the top between pages", () => {
  it("goes on after the remembered item with fetchMore(after:), without duplicates", async () => {
    const items = fakeConversations(30);
    routes["/v1/conversations"] = { form: "offset", items };
    const first = await page({ first: 10 });
    items.unshift(...fakeConversations(3, "cnv_new_"));
    const next = await page({ first: 10, after: first.pageInfo.endCursor });
    expect(summary(next)).toEqual({
      ids: ids(items.slice(13, 23)),
      hasNextPage: true,
      hasPreviousPage: true,
      totalCount: 33,
    });
    expect(new Set([...summary(first).ids, ...summary(next).ids]).size).toBe(20);
    // The overlap item (read at 9) was not cnv_fake_9, found at 12 in the same read; the
    // shifted window's items were mostly read already, so a second round fetches only the rest
    // (no look-ahead: the total is known by then).
    expect(upstream.takeRequests()).toEqual([
      "GET /v1/conversations?limit=11&offset=0",
      "GET /v1/conversations?limit=12&offset=9",
      "GET /v1/conversations?limit=2&offset=21",
    ]);
    // The new page's cursors speak of the new positions.
    const after = await page({ first: 5, after: next.pageInfo.endCursor });
    expect(summary(after).ids).toEqual(ids(items.slice(23, 28)));
  });

  it("pages back with last/before from the remembered item, without skipping", async () => {
    const items = fakeConversations(30);
    routes["/v1/conversations"] = { form: "offset", items };
    const tail = await page({ last: 10 });
    expect(summary(tail).ids).toEqual(ids(items.slice(20, 30)));
    items.unshift(...fakeConversations(2, "cnv_new_"));
    const before = await page({ last: 10, before: tail.pageInfo.startCursor });
    expect(summary(before)).toMatchObject({
      ids: ids(items.slice(12, 22)),
      hasNextPage: true,
      hasPreviousPage: true,
      totalCount: 32,
    });
    expect(summary(before).ids.at(-1)).toBe("cnv_fake_19");
  });

  it("answers CURSOR_EXPIRED when the item moved further than one extra read can follow", async () => {
    const items = fakeConversations(30);
    routes["/v1/conversations"] = { form: "offset", items };
    const first = await page({ first: 10 });
    items.unshift(...fakeConversations(250, "cnv_new_"));
    upstream.takeRequests();
    const { body } = await harness.graphql(CONVERSATIONS, {
      first: 10,
      after: first.pageInfo.endCursor,
    });
    expect(errorCodes(body)).toEqual(["CURSOR_EXPIRED"]);
    expect(body.errors?.[0]?.message).toContain("restart from the first page");
    // The read, then one bounded search further down: never a walk through the list.
    expect(upstream.takeRequests()).toEqual([
      "GET /v1/conversations?limit=12&offset=9",
      "GET /v1/conversations?limit=100&offset=21",
    ]);
  });

  it("answers CURSOR_EXPIRED when the remembered item is gone", async () => {
    const items = fakeConversations(12);
    routes["/v1/conversations"] = { form: "offset", items };
    const first = await page({ first: 10 });
    items.splice(0, 12, ...fakeConversations(12, "cnv_other_"));
    const { body } = await harness.graphql(CONVERSATIONS, {
      first: 10,
      after: first.pageInfo.endCursor,
    });
    expect(errorCodes(body)).toEqual(["CURSOR_EXPIRED"]);
  });
});

describe("cursors a client cannot forge", () => {
  const forged = (payload: unknown, mac = "AAAAAAAAAAAAAAAAAAAAAA") =>
    `${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${mac}`;

  it("answers a position near 2^53 with BAD_USER_INPUT at once, and keeps serving", async () => {
    routes["/v1/conversations"] = { form: "offset", items: fakeConversations(5) };
    const cursor = forged({ v: 2, f: "offset", d: "0123456789abcdef", p: 2 ** 53 - 2, i: null });
    const started = performance.now();
    for (const authorization of ["Bearer x", "Bearer anything"]) {
      const { status, body } = await harness.graphql(
        CONVERSATIONS,
        { first: 10, after: cursor },
        { authorization },
      );
      // Refused for the whole operation before it runs, as a forged cursor is.
      expect(status).toBe(400);
      expect(body.data).toBeUndefined();
      expect(body.errors?.[0]?.extensions).toMatchObject({
        code: "BAD_USER_INPUT",
      });
    }
    // A bound against walking 2^53 positions, not a speed: that would never end.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(upstream.takeRequests()).toEqual([]);
    expect((await fetch(`${harness.url}/healthz`)).status).toBe(200);
  });

  it("refuses a real cursor with its payload altered, or unsigned", async () => {
    routes["/v1/conversations"] = { form: "offset", items: fakeConversations(30) };
    const first = await page({ first: 5 });
    upstream.takeRequests();
    const [payload = "", mac = ""] = (first.pageInfo.endCursor ?? "").split(".");
    const decoded = JSON.parse(Buffer.from(payload, "base64url").toString());
    for (const cursor of [forged({ ...decoded, p: 20 }, mac), payload, `${payload}.`]) {
      const { body } = await harness.graphql(CONVERSATIONS, { first: 5, after: cursor });
      expect(errorCodes(body)).toEqual(["BAD_USER_INPUT"]);
    }
    expect(upstream.takeRequests()).toEqual([]);
  });

  it("is accepted by another instance sharing CURSOR_SECRET, refused by one that does not", async () => {
    const items = fakeConversations(30);
    routes["/v1/conversations"] = { form: "offset", items };
    const first = await page({ first: 5 });
    const twin = await startHarness({
      upstream: { baseUrl: upstream.url },
      gateway: { cursorSecret: SECRET },
    });
    const stranger = await startHarness({ upstream: { baseUrl: upstream.url } });
    try {
      const next: ConnectionResult = await page(
        { first: 5, after: first.pageInfo.endCursor },
        twin,
      );
      expect(summary(next).ids).toEqual(ids(items.slice(5, 10)));
      const { body } = await stranger.graphql(CONVERSATIONS, {
        first: 5,
        after: first.pageInfo.endCursor,
      });
      expect(errorCodes(body)).toEqual(["BAD_USER_INPUT"]);
    } finally {
      await twin.close();
      await stranger.close();
    }
  });
});
