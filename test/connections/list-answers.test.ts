import { afterEach, describe, expect, it } from "vitest";
import { resolveConnection } from "../../src/connections/resolve-connection.ts";
import type { PageForm } from "../../src/connections/types.ts";
import {
  closeListUpstreams,
  itemsSource,
  listUpstream,
  positionCursor,
  range,
  summary,
} from "./list-source.ts";

afterEach(closeListUpstreams);

/**
 * How list bodies are read: by their shape where it names a form, else in the form
 * asked in and from where the request started; what the seed states is held strictly.
 */

async function silentList(form: PageForm, count: number, withTotal = true) {
  const upstream = await listUpstream({ form, count, echo: false, withTotal });
  return { upstream, source: itemsSource(upstream, { assumedForm: form }) };
}

describe("answers that echo no paging parameter", () => {
  it.each(["page", "offset"] as const)(
    "start where the %s request started, forward and back",
    async (form) => {
      const { source } = await silentList(form, 50);
      const middle = await resolveConnection(source, {
        first: 10,
        after: positionCursor(form, 19),
      });
      expect(summary(middle)).toEqual({
        nodes: range(20, 30),
        hasNextPage: true,
        hasPreviousPage: true,
        totalCount: 50,
      });
      const back = await resolveConnection(source, {
        last: 5,
        before: middle.pageInfo.startCursor,
      });
      expect(summary(back).nodes).toEqual(range(15, 20));
    },
  );

  it("read a list assumed cursor-form that answers `items` and `total` as limit/offset", async () => {
    const upstream = await listUpstream({ form: "offset", count: 30, echo: false });
    const source = itemsSource(upstream, { assumedForm: "cursor", defaultSize: 10 });
    const first = await resolveConnection(source, {});
    expect(summary(first)).toMatchObject({ nodes: range(0, 10), totalCount: 30 });
    const next = await resolveConnection(source, { first: 10, after: first.pageInfo.endCursor });
    expect(summary(next).nodes).toEqual(range(10, 20));
    expect(upstream.requests).toEqual(["/items?limit=10", "/items?limit=12&offset=9"]);
  });
});

describe("what the seed states, held", () => {
  const invalid = (expected: string) => ({
    reason: "INVALID_RESPONSE",
    message: expect.stringContaining(`expected ${expected}`),
  });

  it.each([
    ["a body that is no object", [1, 2], "a JSON object with `items`"],
    ["items that are no array", { items: "0,1", total: 2 }, "`items` as an array"],
    ["a negative total", { items: [0], total: -1 }, "`total` as an integer from 0"],
    ["a fractional total", { items: [0], total: 1.5 }, "`total` as an integer from 0"],
    [
      "a pageSize of 0",
      { items: [0], page: 1, pageSize: 0 },
      "`pageSize` as an integer from 1 to 100",
    ],
    [
      "a pageSize past 100",
      { items: [0], page: 1, pageSize: 101 },
      "`pageSize` as an integer from 1",
    ],
    ["a page without pageSize", { items: [0], page: 1 }, "`pageSize` as an integer from 1"],
    [
      "a limit past 100",
      { items: [0], limit: 500, offset: 0 },
      "`limit` as an integer from 1 to 100",
    ],
    ["a negative offset", { items: [0], limit: 5, offset: -5 }, "`offset` as an integer from 0"],
    ["a nextCursor that is a number", { items: [0], nextCursor: 5 }, "`nextCursor` string or null"],
  ])("refuses %s as the upstream's fault", async (_, body, expected) => {
    const upstream = await listUpstream({ form: "page", count: 0, body });
    const failure = await resolveConnection(itemsSource(upstream), { first: 5 }).catch(
      (error: unknown) => error,
    );
    expect(failure).toMatchObject(invalid(expected));
  });

  it("refuses an answer to an upstream cursor that brings no nextCursor", async () => {
    const upstream = await listUpstream({ form: "cursor", count: 30 });
    const source = itemsSource(upstream, { assumedForm: "cursor", defaultSize: 5 });
    const first = await resolveConnection(source, {});
    upstream.requests.length = 0;
    const silent = await listUpstream({ form: "cursor", count: 0, body: { items: [5, 6] } });
    const failure = await resolveConnection(
      { ...itemsSource(silent, { assumedForm: "cursor", defaultSize: 5 }) },
      { after: first.pageInfo.endCursor },
    ).catch((error: unknown) => error);
    expect(failure).toMatchObject(invalid("`nextCursor`"));
    expect(silent.requests).toEqual([`/items?cursor=${encodeURIComponent("YXQ6NQ")}&limit=5`]);
  });
});
