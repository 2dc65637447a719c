import { afterEach, describe, expect, it } from "vitest";
import { resolveConnection } from "../../src/connections/resolve-connection.ts";
import type { ConnectionArgs, ListSource, PageForm } from "../../src/connections/types.ts";
import { UpstreamUnavailableError } from "../../src/upstream/errors.ts";
import {
  closeListUpstreams,
  itemsSource,
  listUpstream,
  positionCursor,
  range,
  summary,
} from "./list-source.ts";

afterEach(closeListUpstreams);

async function mismatchedList(served: PageForm, assumed: PageForm, count: number) {
  const upstream = await listUpstream({ form: served, count });
  const source = itemsSource(upstream, { assumedForm: assumed, defaultSize: 20 });
  return { upstream, source };
}

/** Follows endCursor until hasNextPage is false; returns every node seen. */
async function pageThrough(source: ListSource<number>, args: ConnectionArgs = {}) {
  const seen: number[] = [];
  let after = args.after ?? null;
  for (let hasNextPage = true; hasNextPage; ) {
    const page = await resolveConnection(source, { ...args, after });
    seen.push(...summary(page).nodes);
    ({ hasNextPage } = page.pageInfo);
    after = page.pageInfo.endCursor;
  }
  return seen;
}

const cursorForm = (cursor: string | null) =>
  JSON.parse(Buffer.from((cursor ?? "").split(".")[0] ?? "", "base64url").toString()).f;

describe("recognising the page form from the answer's shape", () => {
  it("pages a list assumed page/pageSize that answers by cursor", async () => {
    const { upstream, source } = await mismatchedList("cursor", "page", 60);
    const first = await resolveConnection(source, {});
    expect(summary(first)).toMatchObject({ nodes: range(0, 20), hasNextPage: true });
    expect(cursorForm(first.pageInfo.endCursor)).toBe("cursor");
    expect(await pageThrough(source, { after: first.pageInfo.endCursor })).toEqual(range(20, 60));
    expect(upstream.requests).toEqual([
      "/items?page=1&pageSize=21",
      "/items?limit=40",
      "/items?cursor=YXQ6NDA&limit=20",
    ]);
  });

  it("refuses `last` once such a list shows it pages by cursor", async () => {
    const { upstream, source } = await mismatchedList("cursor", "page", 60);
    await expect(resolveConnection(source, { last: 5 })).rejects.toMatchObject({
      message: expect.stringContaining("The items list pages forward only"),
      name: "ConnectionError",
      code: "BAD_USER_INPUT",
    });
    expect(upstream.requests).toEqual(["/items?page=1&pageSize=5"]);
  });

  it("pages a list assumed cursor-form that answers by limit/offset", async () => {
    const { upstream, source } = await mismatchedList("offset", "cursor", 50);
    const first = await resolveConnection(source, {});
    expect(summary(first)).toEqual({
      nodes: range(0, 20),
      hasNextPage: true,
      hasPreviousPage: false,
      totalCount: 50,
    });
    expect(first.pageInfo.endCursor).toBe(positionCursor("offset", 19));
    expect(await pageThrough(source, { after: first.pageInfo.endCursor })).toEqual(range(20, 50));
    // Its position cursors page backward too.
    const back = await resolveConnection(source, { last: 5, before: first.pageInfo.endCursor });
    expect(summary(back).nodes).toEqual(range(14, 19));
    expect(upstream.requests).toEqual([
      "/items?limit=20",
      "/items?limit=22&offset=19",
      "/items?limit=22&offset=39",
      "/items?limit=6&offset=14",
    ]);
  });

  it("fills the window when a list assumed cursor-form answers with smaller pages", async () => {
    const { upstream, source } = await mismatchedList("page", "cursor", 30);
    const first = await resolveConnection(source, { first: 25 });
    expect(summary(first)).toMatchObject({ nodes: range(0, 25), totalCount: 30 });
    expect(await pageThrough(source, { first: 25, after: first.pageInfo.endCursor })).toEqual(
      range(25, 30),
    );
    expect(upstream.requests).toEqual([
      "/items?limit=25",
      "/items?page=5&pageSize=5",
      "/items?page=1&pageSize=51",
    ]);
  });

  it("accepts a position cursor of the other position form and goes on in the real one", async () => {
    const { upstream, source } = await mismatchedList("page", "offset", 50);
    const connection = await resolveConnection(source, {
      first: 10,
      after: positionCursor("offset", 29),
    });
    expect(summary(connection).nodes).toEqual(range(30, 40));
    expect(connection.pageInfo.endCursor).toBe(positionCursor("page", 39));
    expect(upstream.requests).toEqual(["/items?limit=12&offset=29", "/items?page=3&pageSize=14"]);
  });

  it("answers CURSOR_EXPIRED when a position cursor meets a list now paged by cursor", async () => {
    const { upstream, source } = await mismatchedList("cursor", "offset", 50);
    await expect(
      resolveConnection(source, { first: 10, after: positionCursor("offset", 29) }),
    ).rejects.toMatchObject({
      message: expect.stringContaining("restart from the first page"),
      name: "ConnectionError",
      code: "CURSOR_EXPIRED",
    });
    expect(upstream.requests).toEqual(["/items?limit=12&offset=29"]);
  });

  it("blames the upstream for a list body of unknown shape", async () => {
    const upstream = await listUpstream({ form: "page", count: 5, unknownShape: true });
    const failure = await resolveConnection(itemsSource(upstream), {}).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(UpstreamUnavailableError);
    expect(failure).toMatchObject({
      reason: "INVALID_RESPONSE",
      message: expect.stringContaining(
        "The upstream list body does not follow the REST description: expected `items`",
      ),
    });
  });
});
