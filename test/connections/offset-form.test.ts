import { afterEach, describe, expect, it } from "vitest";
import { resolveConnection } from "../../src/connections/resolve-connection.ts";
import { closeListUpstreams, positionCursor, positionList, range, summary } from "./list-source.ts";

afterEach(closeListUpstreams);

const at = (position: number) => positionCursor("offset", position);

describe("limit/offset windows", () => {
  it("serves the list's default page size from the start", async () => {
    const { upstream, source } = await positionList("offset", 50);
    const connection = await resolveConnection(source, {});
    expect(summary(connection)).toEqual({
      nodes: range(0, 20),
      hasNextPage: true,
      hasPreviousPage: false,
      totalCount: 50,
    });
    expect(connection.pageInfo.startCursor).toBe(at(0));
    expect(connection.pageInfo.endCursor).toBe(at(19));
    // One item of look-ahead: hasNextPage would be exact even without a total.
    expect(upstream.requests).toEqual(["/items?limit=21&offset=0"]);
  });

  it("asks for the window, the cursor's own item and one more after a cursor", async () => {
    const { upstream, source } = await positionList("offset", 50);
    const connection = await resolveConnection(source, { first: 10, after: at(14) });
    expect(summary(connection)).toEqual({
      nodes: range(15, 25),
      hasNextPage: true,
      hasPreviousPage: true,
      totalCount: 50,
    });
    // Item 14 is read again to check the list did not move under the cursor.
    expect(upstream.requests).toEqual(["/items?limit=12&offset=14"]);
  });

  it("continues from an edge cursor it issued", async () => {
    const { upstream, source } = await positionList("offset", 50);
    const page = await resolveConnection(source, { first: 5 });
    const next = await resolveConnection(source, { first: 5, after: page.edges[2]?.cursor });
    expect(summary(next).nodes).toEqual([3, 4, 5, 6, 7]);
    expect(upstream.requests).toEqual(["/items?limit=6&offset=0", "/items?limit=7&offset=2"]);
  });

  it("reads the tail for `last` without `before` in two requests", async () => {
    const { upstream, source } = await positionList("offset", 50);
    const connection = await resolveConnection(source, { last: 10 });
    expect(summary(connection)).toEqual({
      nodes: range(40, 50),
      hasNextPage: false,
      hasPreviousPage: true,
      totalCount: 50,
    });
    expect(upstream.requests).toEqual(["/items?limit=10&offset=0", "/items?limit=10&offset=40"]);
  });

  it("needs one request for `last` when the whole list fits", async () => {
    const { upstream, source } = await positionList("offset", 8);
    const connection = await resolveConnection(source, { last: 10 });
    expect(summary(connection)).toEqual({
      nodes: range(0, 8),
      hasNextPage: false,
      hasPreviousPage: false,
      totalCount: 8,
    });
    expect(upstream.requests).toEqual(["/items?limit=10&offset=0"]);
  });

  it("fetches only the missing part when the tail overlaps the first read", async () => {
    const { upstream, source } = await positionList("offset", 15);
    const connection = await resolveConnection(source, { last: 10 });
    expect(summary(connection).nodes).toEqual(range(5, 15));
    expect(upstream.requests).toEqual(["/items?limit=10&offset=0", "/items?limit=5&offset=10"]);
  });

  it("pages backward with last/before", async () => {
    const { upstream, source } = await positionList("offset", 50);
    const connection = await resolveConnection(source, { last: 10, before: at(30) });
    expect(summary(connection)).toEqual({
      nodes: range(20, 30),
      hasNextPage: true,
      hasPreviousPage: true,
      totalCount: 50,
    });
    // Item 30 itself is read: it checks the cursor and tells hasNextPage.
    expect(upstream.requests).toEqual(["/items?limit=11&offset=20"]);
  });

  it("stops `last` at the list's start", async () => {
    const { upstream, source } = await positionList("offset", 50);
    const connection = await resolveConnection(source, { last: 10, before: at(4) });
    expect(summary(connection)).toEqual({
      nodes: range(0, 4),
      hasNextPage: true,
      hasPreviousPage: false,
      totalCount: 50,
    });
    expect(upstream.requests).toEqual(["/items?limit=5&offset=0"]);
  });

  it("serves first/before, with hasNextPage true while items follow (`before`'s own included)", async () => {
    const { upstream, source } = await positionList("offset", 50);
    const bounded = await resolveConnection(source, { first: 5, before: at(30) });
    expect(summary(bounded)).toMatchObject({ nodes: range(0, 5), hasNextPage: true });
    const cut = await resolveConnection(source, { first: 5, before: at(3) });
    expect(summary(cut)).toMatchObject({ nodes: [0, 1, 2], hasNextPage: true });
    expect(upstream.requests).toEqual(["/items?limit=6&offset=0", "/items?limit=4&offset=0"]);
  });

  it("serves after/before as the range between, forward from `after`", async () => {
    const { upstream, source } = await positionList("offset", 50);
    const connection = await resolveConnection(source, { after: at(9), before: at(14) });
    expect(summary(connection)).toEqual({
      nodes: [10, 11, 12, 13],
      hasNextPage: true,
      hasPreviousPage: true,
      totalCount: 50,
    });
    expect(upstream.requests).toEqual(["/items?limit=6&offset=9"]);
  });

  it("reads back from a lone `before` with the default size", async () => {
    const { upstream, source } = await positionList("offset", 50);
    const connection = await resolveConnection(source, { before: at(45) });
    expect(summary(connection).nodes).toEqual(range(25, 45));
    expect(upstream.requests).toEqual(["/items?limit=21&offset=25"]);
  });

  it("applies `first` then `last` when both are given", async () => {
    const { upstream, source } = await positionList("offset", 50);
    const connection = await resolveConnection(source, { first: 10, last: 3, after: at(4) });
    expect(summary(connection)).toEqual({
      nodes: [12, 13, 14],
      hasNextPage: true,
      hasPreviousPage: true,
      totalCount: 50,
    });
    expect(connection.pageInfo.startCursor).toBe(at(12));
    expect(upstream.requests).toEqual(["/items?limit=12&offset=4"]);
  });

  it("knows exactly whether a page is the last one", async () => {
    const { upstream, source } = await positionList("offset", 50);
    const last = await resolveConnection(source, { first: 10, after: at(39) });
    expect(summary(last)).toMatchObject({ nodes: range(40, 50), hasNextPage: false });
    const oneBefore = await resolveConnection(source, { first: 10, after: at(38) });
    expect(summary(oneBefore)).toMatchObject({ nodes: range(39, 49), hasNextPage: true });
    const beyond = await resolveConnection(source, { first: 10, after: at(49) });
    expect(summary(beyond)).toEqual({
      nodes: [],
      hasNextPage: false,
      hasPreviousPage: true,
      totalCount: 50,
    });
    expect(upstream.requests).toEqual([
      "/items?limit=12&offset=39",
      "/items?limit=12&offset=38",
      "/items?limit=12&offset=49",
    ]);
  });

  it("answers first: 0 and last: 0 with no edges but exact page info, from one item", async () => {
    const { upstream, source } = await positionList("offset", 50);
    const none = await resolveConnection(source, { first: 0 });
    expect(summary(none)).toEqual({
      nodes: [],
      hasNextPage: true,
      hasPreviousPage: false,
      totalCount: 50,
    });
    expect(none.pageInfo).toMatchObject({ startCursor: null, endCursor: null });
    const atEnd = await resolveConnection(source, { first: 0, after: at(49) });
    expect(summary(atEnd)).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const lastNone = await resolveConnection(source, { last: 0 });
    expect(summary(lastNone)).toEqual({
      nodes: [],
      hasNextPage: false,
      hasPreviousPage: true,
      totalCount: 50,
    });
    expect(upstream.requests).toEqual([
      "/items?limit=1&offset=0",
      "/items?limit=2&offset=49",
      "/items?limit=1&offset=0",
    ]);
  });

  it("re-reads the tail when `before` points past the list's current end", async () => {
    const { upstream, source } = await positionList("offset", 50);
    // A cursor without the item's ID: nothing to find again, the position alone counts.
    const before = positionCursor("offset", 60, {}, null);
    const connection = await resolveConnection(source, { last: 5, before });
    expect(summary(connection)).toMatchObject({ nodes: range(45, 50), hasNextPage: false });
    expect(upstream.requests).toEqual(["/items?limit=5&offset=55", "/items?limit=5&offset=45"]);
  });
});

describe("limit/offset answers shorter than asked (a tighter bound)", () => {
  it("reports only the items received and pages on without gaps", async () => {
    const { upstream, source } = await positionList("offset", 20, { maxItems: 7 });
    const first = await resolveConnection(source, { first: 10 });
    expect(summary(first)).toEqual({
      nodes: range(0, 7),
      hasNextPage: true,
      hasPreviousPage: false,
      totalCount: 20,
    });
    const seen = [...summary(first).nodes];
    let after = first.pageInfo.endCursor;
    while (after !== null) {
      const page = await resolveConnection(source, { first: 10, after });
      seen.push(...summary(page).nodes);
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    }
    expect(seen).toEqual(range(0, 20));
    expect(upstream.requests).toEqual([
      "/items?limit=11&offset=0",
      "/items?limit=12&offset=6",
      "/items?limit=12&offset=12",
      "/items?limit=12&offset=18",
    ]);
  });
});
