import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionQuery, fetchConnection } from "./connection-queries.ts";
import { type Harness, startHarness } from "./harness.ts";

/**
 * Issue 6 against the real sandbox: a new live call starts every 300 ms and lands at the top of
 * the newest-first conversation list, so every page below is read from a list that moved since
 * its cursor was issued.
 */

const INTERVAL_MS = 300;
let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ sandbox: { callIntervalMs: INTERVAL_MS } });
});
afterAll(() => harness.close());

const CONVERSATIONS = connectionQuery("conversations", "ConversationFilter");
const ids = async (variables: Record<string, unknown>) => {
  const page = await fetchConnection(harness, CONVERSATIONS, "conversations", variables);
  return { ids: page.edges.map((edge) => edge.node.id), pageInfo: page.pageInfo };
};

/** Waits until at least one new call tops the list (bounded: a few intervals). */
async function untilNewCall(topId: string | undefined) {
  for (let tries = 0; tries < 10; tries += 1) {
    await sleep(INTERVAL_MS);
    const {
      ids: [top],
    } = await ids({ first: 1 });
    if (top !== topId) return;
  }
  throw new Error("no new call arrived");
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
