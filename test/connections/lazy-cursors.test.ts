import { afterEach, describe, expect, it } from "vitest";
import { resolveConnection } from "../../src/connections/resolve-connection.ts";
import type { ListSource } from "../../src/connections/types.ts";
import {
  closeListUpstreams,
  itemsSource,
  listUpstream,
  positionCursor,
  range,
} from "./list-source.ts";

afterEach(closeListUpstreams);

// A cursor is an HMAC over its place: a client that selects only `nodes` (or `edges { node }`)
// must not pay 50 of them for a page of 50. The place's item ID is read when the cursor is made,
// so the source's `itemId` counts the cursors issued.

async function countingList(form: "page" | "offset", count: number) {
  const upstream = await listUpstream({ form, count });
  const issued: number[] = [];
  const source: ListSource<number> = itemsSource(upstream, {
    assumedForm: form,
    itemId: (item) => {
      issued.push(item);
      return `item_${item}`;
    },
  });
  return { source, issued };
}

describe.each(["page", "offset"] as const)("cursors of the %s form", (form) => {
  it("are issued only when read, once each, and are the same cursors", async () => {
    const { source, issued } = await countingList(form, 50);

    const connection = await resolveConnection(source, { first: 20 });

    expect(connection.edges.map((edge) => edge.node)).toEqual(range(0, 20));
    expect(connection.pageInfo.hasNextPage).toBe(true);
    expect(issued).toEqual([]);

    expect(connection.edges[3]?.cursor).toBe(positionCursor(form, 3));
    expect(connection.edges[3]?.cursor).toBe(positionCursor(form, 3));
    expect(issued).toEqual([3]);

    expect(connection.pageInfo.startCursor).toBe(positionCursor(form, 0));
    expect(connection.pageInfo.endCursor).toBe(positionCursor(form, 19));
    expect(connection.pageInfo.endCursor).toBe(positionCursor(form, 19));
    expect(issued).toEqual([3, 0, 19]);
  });
});
