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
} from "./list-source.ts";

afterEach(closeListUpstreams);

const at = (position: number) => positionCursor("offset", position);

describe("limit/offset answers without a total", () => {
  it("reports totalCount null and knows hasNextPage exactly from one item of look-ahead", async () => {
    const { upstream, source } = await positionList("offset", 50, { withTotal: false });
    // The last ten items: the look-ahead item (50) does not come, so nothing follows.
    const last = await resolveConnection(source, { first: 10, after: at(39) });
    expect(summary(last)).toEqual({
      nodes: range(40, 50),
      hasNextPage: false,
      hasPreviousPage: true,
      totalCount: null,
    });
    // One item earlier, the look-ahead item (49) comes and is dropped from the page.
    const oneBefore = await resolveConnection(source, { first: 10, after: at(38) });
    expect(summary(oneBefore)).toMatchObject({ nodes: range(39, 49), hasNextPage: true });
    expect(upstream.requests).toEqual(["/items?limit=12&offset=39", "/items?limit=12&offset=38"]);
  });

  it("rejects `last` without `before`, since the tail cannot be found", async () => {
    const { upstream, source } = await positionList("offset", 50, { withTotal: false });
    await expect(resolveConnection(source, { last: 5 })).rejects.toMatchObject({
      message: expect.stringContaining("`last` without `before` needs the items list's total"),
      name: "ConnectionError",
      code: "BAD_USER_INPUT",
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
    expect(upstream.requests).toEqual(["/items?page=1&pageSize=11", "/items?page=1&pageSize=21"]);
  });
});
