import { afterEach, describe, expect, it } from "vitest";
import { resolveConnection } from "../../src/connections/resolve-connection.ts";
import type { Connection } from "../../src/connections/types.ts";
import { UpstreamError } from "../../src/upstream/errors.ts";
import { upstreamCursorAt } from "../support/list-upstream.ts";
import { closeListUpstreams, itemsSource, listUpstream, range, summary } from "./list-source.ts";

afterEach(closeListUpstreams);

async function cursorList(
  count: number,
  options: { withTotal?: boolean; maxItems?: number; rejectCursorsWith?: number } = {},
) {
  const upstream = await listUpstream({ form: "cursor", count, ...options });
  return { upstream, source: itemsSource(upstream, { assumedForm: "cursor", defaultSize: 25 }) };
}

describe("cursor-form lists", () => {
  it("serves the default page size from the first upstream page", async () => {
    const { upstream, source } = await cursorList(60);
    const connection = await resolveConnection(source, {});
    expect(summary(connection)).toEqual({
      nodes: range(0, 25),
      hasNextPage: true,
      hasPreviousPage: false,
      totalCount: null,
    });
    expect(upstream.requests).toEqual(["/items?limit=25"]);
  });

  it("reports the upstream's total when it sends one", async () => {
    const { source } = await cursorList(60, { withTotal: true });
    expect((await resolveConnection(source, { first: 5 })).totalCount).toBe(60);
  });

  it("pages forward through every item by the upstream's cursors", async () => {
    const { upstream, source } = await cursorList(60);
    const seen: number[] = [];
    let after: string | null = null;
    let pages = 0;
    for (let hasNextPage = true; hasNextPage; pages += 1) {
      const page: Connection<number> = await resolveConnection(source, { first: 25, after });
      seen.push(...summary(page).nodes);
      expect(page.pageInfo.hasPreviousPage).toBe(after !== null);
      ({ hasNextPage } = page.pageInfo);
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(range(0, 60));
    expect(pages).toBe(3);
    expect(upstream.requests).toEqual([
      "/items?limit=25",
      `/items?cursor=${upstreamCursorAt(25)}&limit=25`,
      `/items?cursor=${upstreamCursorAt(50)}&limit=25`,
    ]);
  });

  it("resumes from a middle edge's cursor without gaps or duplicates", async () => {
    const { upstream, source } = await cursorList(60);
    const first = await resolveConnection(source, { first: 10 });
    const fromFirstPage = await resolveConnection(source, {
      first: 5,
      after: first.edges[3]?.cursor,
    });
    expect(summary(fromFirstPage)).toMatchObject({ nodes: range(4, 9), hasNextPage: true });

    const second = await resolveConnection(source, { first: 10, after: first.pageInfo.endCursor });
    expect(summary(second).nodes).toEqual(range(10, 20));
    const fromSecondPage = await resolveConnection(source, {
      first: 10,
      after: second.edges[5]?.cursor,
    });
    expect(summary(fromSecondPage).nodes).toEqual(range(16, 26));
    const third = await resolveConnection(source, {
      first: 10,
      after: fromSecondPage.pageInfo.endCursor,
    });
    expect(summary(third).nodes).toEqual(range(26, 36));
    expect(upstream.requests).toEqual([
      "/items?limit=10",
      "/items?limit=9",
      `/items?cursor=${upstreamCursorAt(10)}&limit=10`,
      `/items?cursor=${upstreamCursorAt(10)}&limit=16`,
      `/items?cursor=${upstreamCursorAt(26)}&limit=10`,
    ]);
  });

  it("returns fewer items when resuming deep into a page would pass the size bound", async () => {
    const { upstream, source } = await cursorList(150);
    const wide = await resolveConnection(source, { first: 100 });
    const deep = await resolveConnection(source, { first: 10, after: wide.edges[94]?.cursor });
    expect(summary(deep)).toMatchObject({ nodes: range(95, 100), hasNextPage: true });
    const next = await resolveConnection(source, { first: 10, after: deep.pageInfo.endCursor });
    expect(summary(next).nodes).toEqual(range(100, 110));
    expect(upstream.requests).toEqual([
      "/items?limit=100",
      "/items?limit=100",
      `/items?cursor=${upstreamCursorAt(100)}&limit=10`,
    ]);
  });

  it("follows an endpoint's tighter bound with the upstream's next cursor", async () => {
    const { upstream, source } = await cursorList(30, { maxItems: 10 });
    const first = await resolveConnection(source, { first: 25 });
    expect(summary(first)).toMatchObject({ nodes: range(0, 10), hasNextPage: true });
    const next = await resolveConnection(source, { first: 25, after: first.pageInfo.endCursor });
    expect(summary(next).nodes).toEqual(range(10, 20));
    expect(upstream.requests).toEqual([
      "/items?limit=25",
      `/items?cursor=${upstreamCursorAt(10)}&limit=25`,
    ]);
  });

  it("ends with hasNextPage false on the upstream's last page", async () => {
    const { source } = await cursorList(12);
    const first = await resolveConnection(source, { first: 10 });
    const last = await resolveConnection(source, { first: 10, after: first.pageInfo.endCursor });
    expect(summary(last)).toEqual({
      nodes: [10, 11],
      hasNextPage: false,
      hasPreviousPage: true,
      totalCount: null,
    });
  });

  it("counts the items left on the upstream's last page, not only its nextCursor", async () => {
    const { upstream, source } = await cursorList(12);
    const first = await resolveConnection(source, { first: 10 });
    // The last upstream page holds 10 and 11 (nextCursor null); its first edge resumes mid-page.
    const two = await resolveConnection(source, { first: 2, after: first.pageInfo.endCursor });
    const [ten] = two.edges;
    const mid = await resolveConnection(source, { first: 0, after: ten?.cursor });
    expect(summary(mid)).toMatchObject({ nodes: [], hasNextPage: true });
    const rest = await resolveConnection(source, { first: 1, after: ten?.cursor });
    expect(summary(rest)).toMatchObject({ nodes: [11], hasNextPage: false });
    expect(upstream.requests.slice(2)).toEqual([
      `/items?cursor=${upstreamCursorAt(10)}&limit=2`,
      `/items?cursor=${upstreamCursorAt(10)}&limit=2`,
    ]);
  });

  it("answers first: 0 from a one-item read", async () => {
    const { upstream, source } = await cursorList(12);
    const none = await resolveConnection(source, { first: 0 });
    expect(summary(none)).toMatchObject({ nodes: [], hasNextPage: true });
    expect(upstream.requests).toEqual(["/items?limit=1"]);
  });

  it("rejects last/before as a forward-only list, without an upstream call", async () => {
    const { upstream, source } = await cursorList(12);
    const page = await resolveConnection(source, { first: 5 });
    for (const args of [{ last: 5 }, { first: 5, before: page.pageInfo.endCursor }]) {
      await expect(resolveConnection(source, args)).rejects.toMatchObject({
        message:
          "The items list pages forward only (the upstream pages it by cursor): " +
          "use `first`/`after`, not `last`/`before`",
        name: "ConnectionError",
        code: "BAD_USER_INPUT",
      });
    }
    expect(upstream.requests).toEqual(["/items?limit=5"]);
  });
});

describe("an upstream rejecting its own cursor", () => {
  async function rejectedResume(status: number) {
    const { upstream, source } = await cursorList(30, { rejectCursorsWith: status });
    const first = await resolveConnection(source, { first: 5 });
    const failure = await resolveConnection(source, {
      first: 5,
      after: first.pageInfo.endCursor,
    }).catch((error: unknown) => error);
    expect(upstream.requests).toEqual([
      "/items?limit=5",
      `/items?cursor=${upstreamCursorAt(5)}&limit=5`,
    ]);
    return failure;
  }

  it.each([400, 404, 410])(
    "turns a %i into CURSOR_EXPIRED with the upstream facts",
    async (status) => {
      expect(await rejectedResume(status)).toMatchObject({
        message: "The upstream no longer accepts this cursor; restart from the first page",
        name: "ConnectionError",
        code: "CURSOR_EXPIRED",
        cause: {
          name: "UpstreamError",
          status,
          code: "INVALID_CURSOR",
          message: "Cursor rejected",
          requestId: "req_cursor",
          details: { cursor: upstreamCursorAt(5) },
        },
      });
    },
  );

  it.each([401, 403, 429])("lets a %i through as the UpstreamError it is", async (status) => {
    const failure = await rejectedResume(status);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(failure).toMatchObject({ status, code: "INVALID_CURSOR" });
  });
});
