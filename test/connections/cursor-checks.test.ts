import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { encodeCursor, listDigest } from "../../src/connections/cursor.ts";
import { resolveConnection } from "../../src/connections/resolve-connection.ts";
import { validateConnectionArgs } from "../../src/connections/validate-args.ts";
import {
  closeListUpstreams,
  itemsSource,
  listUpstream,
  positionCursor,
  summary,
  TEST_CURSOR_KEY,
} from "./list-source.ts";

afterEach(closeListUpstreams);

async function offsetList(filters: Record<string, unknown> = {}) {
  const upstream = await listUpstream({ form: "offset", count: 30 });
  return { upstream, source: itemsSource(upstream, { assumedForm: "offset", filters }) };
}

const badInput = (message: string) => ({
  message,
  name: "ConnectionError",
  code: "BAD_USER_INPUT",
});

describe("size bounds", () => {
  it.each([
    [{ first: 101 }, "`first` must be between 0 and 100, got 101"],
    [{ first: -1 }, "`first` must be between 0 and 100, got -1"],
    [{ last: 101 }, "`last` must be between 0 and 100, got 101"],
    [{ last: 2.5 }, "`last` must be between 0 and 100, got 2.5"],
  ])("rejects %j before any upstream call", async (args, message) => {
    const { upstream, source } = await offsetList();
    await expect(resolveConnection(source, args)).rejects.toMatchObject(badInput(message));
    expect(upstream.requests).toEqual([]);
  });

  it("accepts the bounds themselves", async () => {
    const { upstream, source } = await offsetList();
    await resolveConnection(source, { first: 100 });
    await resolveConnection(source, { first: 0 });
    expect(upstream.requests).toEqual([
      "/items?limit=51&offset=0",
      "/items?limit=50&offset=51",
      "/items?limit=1&offset=0",
    ]);
  });

  it("honours a list's own smaller bound", async () => {
    const { upstream, source } = await offsetList();
    await expect(
      resolveConnection({ ...source, maxSize: 50 }, { first: 51 }),
    ).rejects.toMatchObject(badInput("`first` must be between 0 and 50, got 51"));
    expect(upstream.requests).toEqual([]);
  });

  it("validates synchronously for the cost check, forward-only lists included", () => {
    expect(() => validateConnectionArgs({ first: 100, after: "x" }, {})).not.toThrow();
    expect(() => validateConnectionArgs({ first: 300 }, {})).toThrow(
      "`first` must be between 0 and 100, got 300",
    );
    expect(() => validateConnectionArgs({ last: 5 }, { forwardOnly: true })).toThrow(
      "pages forward only",
    );
    expect(() => validateConnectionArgs({ before: "x" }, { forwardOnly: true })).toThrow(
      "pages forward only",
    );
  });
});

describe("malformed cursors", () => {
  const json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const digest = listDigest("items", "offset", {});

  it.each([
    ["not base64url", "not a cursor!"],
    ["not JSON", Buffer.from("hello").toString("base64url")],
    ["another version", json({ v: 2, f: "offset", d: digest, p: 3 })],
    ["an unknown form", json({ v: 1, f: "keyset", d: digest, p: 3 })],
    ["a negative position", json({ v: 1, f: "offset", d: digest, p: -1 })],
    ["a fractional position", json({ v: 1, f: "offset", d: digest, p: 1.5 })],
    ["a cursor form without skip", json({ v: 1, f: "cursor", d: digest, u: "abc" })],
  ])("rejects %s as BAD_USER_INPUT, without an upstream call", async (_, cursor) => {
    const { upstream, source } = await offsetList();
    await expect(resolveConnection(source, { after: cursor })).rejects.toMatchObject(
      badInput("`after` is not a cursor issued by this gateway"),
    );
    await expect(resolveConnection(source, { before: cursor })).rejects.toMatchObject(
      badInput("`before` is not a cursor issued by this gateway"),
    );
    expect(upstream.requests).toEqual([]);
  });

  it("issues base64url cursors carrying a short digest, the item's ID and a mac", async () => {
    const { source } = await offsetList();
    const { pageInfo } = await resolveConnection(source, { first: 2 });
    expect(pageInfo.endCursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    const [payload] = (pageInfo.endCursor ?? "").split(".");
    const decoded = JSON.parse(Buffer.from(payload ?? "", "base64url").toString());
    expect(decoded).toEqual({ v: 2, f: "offset", d: digest, p: 1, i: "item_1" });
    expect(digest).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe("forged and out-of-reach cursors", () => {
  const signed = (fields: Record<string, unknown>, key = TEST_CURSOR_KEY) => {
    const payload = Buffer.from(JSON.stringify({ v: 2, d: digest, ...fields })).toString(
      "base64url",
    );
    const mac = createHmac("sha256", key).update(payload).digest().subarray(0, 16);
    return `${payload}.${mac.toString("base64url")}`;
  };
  const digest = listDigest("items", "offset", {});

  it.each([
    ["a position near 2^53 under a valid mac", signed({ f: "offset", p: 2 ** 53 - 2, i: null })],
    ["a position past 10^7", signed({ f: "offset", p: 10_000_001, i: null })],
    ["an ID past 255 characters", signed({ f: "offset", p: 3, i: "x".repeat(256) })],
    ["an ID that is no string", signed({ f: "offset", p: 3, i: 7 })],
    ["a skip near 2^53", signed({ f: "cursor", u: null, s: 2 ** 53 - 1 })],
    ["an upstream cursor past 2048 characters", signed({ f: "cursor", u: "u".repeat(2049), s: 0 })],
    ["another key's mac", signed({ f: "offset", p: 3, i: null }, Buffer.from("another key"))],
    ["no mac", signed({ f: "offset", p: 3, i: null }).split(".")[0] ?? ""],
    ["a megabyte of input", `${"A".repeat(1 << 20)}.AAAAAAAAAAAAAAAAAAAAAA`],
  ])("rejects %s as BAD_USER_INPUT within milliseconds, without a call", async (_, cursor) => {
    const { upstream, source } = await offsetList();
    const started = performance.now();
    await expect(resolveConnection(source, { first: 5, after: cursor })).rejects.toMatchObject(
      badInput("`after` is not a cursor issued by this gateway"),
    );
    // A bound against a walk or a backtracking decode, not a speed: those would take minutes.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(upstream.requests).toEqual([]);
  });

  it("accepts the same fields within reach, so the checks above are what refused them", async () => {
    const { upstream, source } = await offsetList();
    const connection = await resolveConnection(source, {
      first: 2,
      after: signed({ f: "offset", p: 3, i: null }),
    });
    expect(summary(connection).nodes).toEqual([4, 5]);
    expect(upstream.requests).toEqual(["/items?limit=3&offset=4"]);
  });
});

describe("cursors bound to their list and filters", () => {
  it("rejects a cursor issued for other filters with CURSOR_MISMATCH, without a call", async () => {
    const active = await offsetList({ status: "ACTIVE" });
    const page = await resolveConnection(active.source, { first: 5 });
    const paused = await offsetList({ status: "PAUSED", agentId: "agt_1" });
    await expect(
      resolveConnection(paused.source, { first: 5, after: page.pageInfo.endCursor }),
    ).rejects.toMatchObject({
      message:
        "This cursor was issued for another list or other filters than this request's " +
        "(items list with status=PAUSED, agentId=agt_1); " +
        "restart from the first page without `after`/`before`",
      name: "ConnectionError",
      code: "CURSOR_MISMATCH",
    });
    expect(active.upstream.requests).toEqual(["/items?limit=6&offset=0&status=ACTIVE"]);
    expect(paused.upstream.requests).toEqual([]);
  });

  it("rejects a cursor of another list, or of no filters once filtered", async () => {
    const { upstream, source } = await offsetList({ status: "ACTIVE" });
    const otherList = encodeCursor(
      TEST_CURSOR_KEY,
      listDigest("agents", "offset", { status: "ACTIVE" }),
      { form: "offset", position: 4, id: null },
    );
    for (const cursor of [otherList, positionCursor("offset", 4)]) {
      await expect(resolveConnection(source, { before: cursor })).rejects.toMatchObject({
        name: "ConnectionError",
        code: "CURSOR_MISMATCH",
      });
    }
    expect(upstream.requests).toEqual([]);
  });

  it("takes filters in any key order, ignoring unset ones", async () => {
    const { upstream, source } = await offsetList({ status: "ACTIVE", agentId: "agt_1" });
    const page = await resolveConnection(source, { first: 5 });
    const sameFilters = {
      ...source,
      filters: { agentId: "agt_1", search: undefined, status: "ACTIVE", channel: null },
    };
    const next = await resolveConnection(sameFilters, { first: 5, after: page.pageInfo.endCursor });
    expect(summary(next).nodes).toEqual([5, 6, 7, 8, 9]);
    expect(upstream.requests).toEqual([
      "/items?limit=6&offset=0&status=ACTIVE&agentId=agt_1",
      "/items?limit=7&offset=4&status=ACTIVE&agentId=agt_1",
    ]);
  });
});
