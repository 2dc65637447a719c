import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionQuery, fetchConnection } from "./connection-queries.ts";
import { type Harness, startHarness } from "./harness.ts";

/**
 * Moving lists against the real sandbox: a new live call starts every 300 ms of the sandbox's clock and
 * lands at the top of the newest-first conversation list, so every page below is read from a list
 * that moved since its cursor was issued. The clock is the test's own: the list moves between
 * pages, exactly when the test says, and never in the middle of one page's reads (which once
 * made these tests fail now and then on a loaded machine: a call arriving between a page's two
 * upstream reads shifts the second by one).
 */

const INTERVAL_MS = 300;
let clock = Date.now();
let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ sandbox: { callIntervalMs: INTERVAL_MS, now: () => clock } });
});
afterAll(() => harness.close());

const CONVERSATIONS = connectionQuery("conversations", "ConversationFilter");
const ids = async (variables: Record<string, unknown>) => {
  const page = await fetchConnection(harness, CONVERSATIONS, "conversations", variables);
  return { ids: page.edges.map((edge) => edge.node.id), pageInfo: page.pageInfo };
};

/** Moves the sandbox's clock on until a new call tops the list (one interval does it). */
async function untilNewCall(topId: string | undefined) {
  clock += INTERVAL_MS;
  const {
    ids: [top],
  } = await ids({ first: 1 });
  if (top === topId) throw new Error("no new call arrived");
}

describe("the conversation list gaining live calls at the top", () => {
  it("fetchMore(after:) goes on right after the last item seen, without duplicates", async () => {
    const first = await ids({ first: 10 });
    await untilNewCall(first.ids[0]);
    const next = await ids({ first: 10, after: first.pageInfo.endCursor });
    const now = await ids({ first: 100 });
    const lastSeen = now.ids.indexOf(first.ids.at(-1) ?? "");
    expect(lastSeen).toBeGreaterThan(9);
    expect(next.ids).toEqual(now.ids.slice(lastSeen + 1, lastSeen + 11));
    expect(new Set([...first.ids, ...next.ids]).size).toBe(20);
  });

  it("last/before goes on right before the first item seen, without skipping", async () => {
    const start = await ids({ first: 20 });
    const middle = await ids({ first: 10, after: start.pageInfo.endCursor });
    await untilNewCall(start.ids[0]);
    const back = await ids({ last: 10, before: middle.pageInfo.startCursor });
    const now = await ids({ first: 100 });
    const firstSeen = now.ids.indexOf(middle.ids[0] ?? "");
    expect(firstSeen).toBeGreaterThan(20);
    expect(back.ids).toEqual(now.ids.slice(firstSeen - 10, firstSeen));
  });
});
