import { afterEach, describe, expect, it } from "vitest";
import { planPositionRequests } from "../../src/connections/position-plan.ts";
import { resolveConnection } from "../../src/connections/resolve-connection.ts";
import type { Connection } from "../../src/connections/types.ts";
import { closeListUpstreams, positionCursor, positionList, range, summary } from "./list-source.ts";

afterEach(closeListUpstreams);

const at = (position: number) => positionCursor("page", position);

describe("page/pageSize windows", () => {
  it("serves the list's default page size as page 1", async () => {
    const { upstream, source } = await positionList("page", 50);
    const connection = await resolveConnection(source, {});
    expect(summary(connection)).toEqual({
      nodes: range(0, 20),
      hasNextPage: true,
      hasPreviousPage: false,
      totalCount: 50,
    });
    expect(upstream.requests).toEqual(["/items?page=1&pageSize=21"]);
  });

  it("serves a window aligned to its size as one page", async () => {
    const { upstream, source } = await positionList("page", 50);
    const connection = await resolveConnection(source, { first: 10, after: at(9) });
    expect(summary(connection).nodes).toEqual(range(10, 20));
    expect(upstream.requests).toEqual(["/items?page=1&pageSize=21"]);
  });

  it("serves an unaligned window with one larger page when one holds it", async () => {
    const { upstream, source } = await positionList("page", 50);
    // Items 15..24: pages of 10, 11 and 12 split them; page 2 of 13 holds 13..25.
    const connection = await resolveConnection(source, { first: 10, after: at(14) });
    expect(summary(connection)).toEqual({
      nodes: range(15, 25),
      hasNextPage: true,
      hasPreviousPage: true,
      totalCount: 50,
    });
    expect(connection.pageInfo.startCursor).toBe(at(15));
    expect(upstream.requests).toEqual(["/items?page=2&pageSize=13"]);
  });

  it("serves a window no single page holds with two pages, in parallel", async () => {
    const { upstream, source } = await positionList("page", 300);
    const connection = await resolveConnection(source, { first: 100, after: at(49) });
    expect(summary(connection)).toMatchObject({ nodes: range(50, 150), hasNextPage: true });
    expect([...upstream.requests].sort()).toEqual([
      "/items?page=1&pageSize=76",
      "/items?page=2&pageSize=76",
    ]);
  });

  it("plans the smallest single page, else the smallest two neighbouring pages", () => {
    expect(planPositionRequests("page", { start: 15, end: 25 }, 100)).toEqual([
      { page: 2, pageSize: 13 },
    ]);
    expect(planPositionRequests("page", { start: 15, end: 25 }, 12)).toEqual([
      { page: 4, pageSize: 5 },
      { page: 5, pageSize: 5 },
    ]);
    expect(planPositionRequests("page", { start: 0, end: 7 }, 100)).toEqual([
      { page: 1, pageSize: 7 },
    ]);
    expect(planPositionRequests("offset", { start: 15, end: 25 }, 100)).toEqual([
      { limit: 10, offset: 15 },
    ]);
  });

  it("reads the tail for `last` without `before`: page 1, then the last page", async () => {
    const { upstream, source } = await positionList("page", 50);
    const connection = await resolveConnection(source, { last: 10 });
    expect(summary(connection)).toEqual({
      nodes: range(40, 50),
      hasNextPage: false,
      hasPreviousPage: true,
      totalCount: 50,
    });
    expect(upstream.requests).toEqual(["/items?page=1&pageSize=10", "/items?page=5&pageSize=10"]);
  });

  it("pages backward with last/before through one page that holds the window", async () => {
    const { upstream, source } = await positionList("page", 50);
    const connection = await resolveConnection(source, { last: 7, before: at(30) });
    expect(summary(connection)).toEqual({
      nodes: range(23, 30),
      hasNextPage: true,
      hasPreviousPage: true,
      totalCount: 50,
    });
    expect(upstream.requests).toEqual(["/items?page=3&pageSize=11"]);
  });

  it("reads a single item for first: 0 at the window's place", async () => {
    const { upstream, source } = await positionList("page", 50);
    const connection = await resolveConnection(source, { first: 0, after: at(14) });
    expect(summary(connection)).toEqual({
      nodes: [],
      hasNextPage: true,
      hasPreviousPage: true,
      totalCount: 50,
    });
    expect(upstream.requests).toEqual(["/items?page=8&pageSize=2"]);
  });

  it("pages forward through every item without gaps or duplicates", async () => {
    const { upstream, source } = await positionList("page", 23);
    const seen: number[] = [];
    let after: string | null = null;
    let hasNextPage = true;
    while (hasNextPage) {
      const page: Connection<number> = await resolveConnection(source, { first: 7, after });
      seen.push(...summary(page).nodes);
      ({ hasNextPage } = page.pageInfo);
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(range(0, 23));
    expect(upstream.requests).toEqual([
      "/items?page=1&pageSize=8",
      "/items?page=1&pageSize=15",
      "/items?page=2&pageSize=11",
      "/items?page=3&pageSize=10",
    ]);
  });

  it("pages backward through every item from the end", async () => {
    const { upstream, source } = await positionList("page", 23);
    const seen: number[] = [];
    let before: string | null = null;
    let hasPreviousPage = true;
    while (hasPreviousPage) {
      const page: Connection<number> = await resolveConnection(source, { last: 10, before });
      seen.unshift(...summary(page).nodes);
      ({ hasPreviousPage } = page.pageInfo);
      before = page.pageInfo.startCursor;
    }
    expect(seen).toEqual(range(0, 23));
    expect(upstream.requests).toEqual([
      "/items?page=1&pageSize=10",
      "/items?page=2&pageSize=12",
      "/items?page=1&pageSize=14",
      "/items?page=1&pageSize=4",
    ]);
  });
});

describe("page/pageSize answers shorter than asked", () => {
  it("reports the items received when the page is cut short", async () => {
    const { upstream, source } = await positionList("page", 50, { maxItems: 10 });
    const connection = await resolveConnection(source, { first: 20 });
    expect(summary(connection)).toEqual({
      nodes: range(0, 10),
      hasNextPage: true,
      hasPreviousPage: false,
      totalCount: 50,
    });
    expect(upstream.requests).toEqual(["/items?page=1&pageSize=21"]);
  });

  it("re-asks with the bounded size when the page it chose ended before the window", async () => {
    const { upstream, source } = await positionList("page", 50, { maxItems: 10 });
    // Page 1 of 30 would hold items 10..29, but the upstream stops after 10 items.
    const connection = await resolveConnection(source, { first: 20, after: at(9) });
    expect(summary(connection)).toMatchObject({ nodes: range(10, 20), hasNextPage: true });
    expect(upstream.requests).toEqual(["/items?page=1&pageSize=31", "/items?page=2&pageSize=10"]);
  });

  it("follows an upstream that shrinks pageSize itself", async () => {
    const { upstream, source } = await positionList("page", 50, {
      maxItems: 10,
      clampPageSize: true,
    });
    const connection = await resolveConnection(source, { first: 20, after: at(19) });
    expect(summary(connection)).toMatchObject({ nodes: range(20, 30), hasNextPage: true });
    expect(connection.pageInfo.endCursor).toBe(at(29));
    expect(upstream.requests).toEqual([
      "/items?page=1&pageSize=41",
      "/items?page=4&pageSize=6",
      "/items?page=5&pageSize=6",
    ]);
  });
});
