import { afterEach, describe, expect, it } from "vitest";
import { resolveConnection } from "../../src/connections/resolve-connection.ts";
import {
  closeListUpstreams,
  itemsSource,
  listUpstream,
  positionCursor,
  positionList,
  range,
  summary,
} from "./list-upstream.ts";

afterEach(closeListUpstreams);

const at = (position: number) => positionCursor("offset", position);

describe("limit/offset answers without a total", () => {
  it("reports totalCount null and guesses hasNextPage from a full answer", async () => {
    const { upstream, source } = await positionList("offset", 50, { withTotal: false });
    const full = await resolveConnection(source, { first: 10, after: at(39) });
    // The last ten items fill the answer, so more may follow as far as anyone can tell.
    expect(summary(full)).toEqual({
      nodes: range(40, 50),
      hasNextPage: true,
      hasPreviousPage: true,
      totalCount: null,
    });
    const short = await resolveConnection(source, { first: 20, after: at(39) });
    expect(summary(short)).toMatchObject({ nodes: range(40, 50), hasNextPage: false });
    expect(upstream.requests).toEqual(["/items?limit=10&offset=40", "/items?limit=20&offset=40"]);
  });

  it("rejects `last` without `before`, since the tail cannot be found", async () => {
    const { upstream, source } = await positionList("offset", 50, { withTotal: false });
    await expect(resolveConnection(source, { last: 5 })).rejects.toMatchObject({
      message: expect.stringContaining("`last` without `before` needs the items list's total"),
      extensions: { code: "BAD_USER_INPUT" },
    });
    expect(upstream.requests).toEqual(["/items?limit=5&offset=0"]);
  });
});

describe("page/pageSize answers without a total", () => {
  it("knows the list ended when a page comes back short", async () => {
    const upstream = await listUpstream({ form: "page", count: 12, withTotal: false });
    const source = itemsSource(upstream, { assumedForm: "page" });
    const first = await resolveConnection(source, { first: 10 });
    expect(summary(first)).toMatchObject({
      nodes: range(0, 10),
      hasNextPage: true,
      totalCount: null,
    });
    const last = await resolveConnection(source, { first: 10, after: first.pageInfo.endCursor });
    expect(summary(last)).toMatchObject({ nodes: [10, 11], hasNextPage: false });
    expect(upstream.requests).toEqual(["/items?page=1&pageSize=10", "/items?page=2&pageSize=10"]);
  });
});
