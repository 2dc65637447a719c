import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SEED_COUNTS } from "../../src/sandbox/seed-data.ts";
import {
  type ConnectionArgs,
  type ConnectionResult,
  connectionQuery,
  fetchConnection,
  pagesForward,
  summary,
} from "./connection-queries.ts";
import { ACME, type Harness, startHarness } from "./harness.ts";

/**
 * Contract §4 for the page/pageSize form, through /graphql over HTTP against the sandbox:
 * `agents`, with the exact upstream requests the window planner chooses.
 */

let harness: Harness;
/** Ids in the sandbox's own list order, read straight from the upstream. */
let agentIds: string[];

beforeAll(async () => {
  harness = await startHarness();
  const response = await fetch(`${harness.sandbox.url}/v1/agents?pageSize=100`, {
    headers: { authorization: ACME },
  });
  agentIds = ((await response.json()) as { items: Array<{ id: string }> }).items.map((a) => a.id);
});
afterAll(() => harness.close());
beforeEach(() => {
  harness.takeUpstreamRequests();
});

const AGENTS = connectionQuery("agents");
const agents = (args: ConnectionArgs = {}) => fetchConnection(harness, AGENTS, "agents", args);

/** The cursor the gateway issues for the agent at `index` (a position: any page gives the same). */
async function agentCursor(index: number): Promise<string> {
  const page = await agents({ first: index + 1 });
  harness.takeUpstreamRequests();
  return page.edges[index]?.cursor as string;
}

describe("agents (page/pageSize upstream)", () => {
  it("serves the default page from page 1 of 20, with the total", async () => {
    expect(agentIds).toHaveLength(SEED_COUNTS.acme.agents);
    const page = await agents();
    expect(summary(page)).toEqual({
      ids: agentIds.slice(0, 20),
      hasNextPage: true,
      hasPreviousPage: false,
      totalCount: 45,
    });
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/agents?page=1&pageSize=21"]);
  });

  it("walks forward through all 45 agents with first/after, in the sandbox's order", async () => {
    const pages = await pagesForward(harness, AGENTS, "agents", 10);
    for (const page of pages) expect(page.totalCount).toBe(45);
    const seen = pages.flatMap((page) => summary(page).ids);
    const flags = pages.map((page) => [page.pageInfo.hasPreviousPage, page.pageInfo.hasNextPage]);
    expect(seen).toEqual(agentIds);
    expect(flags).toEqual([
      [false, true],
      [true, true],
      [true, true],
      [true, true],
      [true, false],
    ]);
    expect(harness.takeUpstreamRequests()).toEqual([
      "GET /v1/agents?page=1&pageSize=11",
      "GET /v1/agents?page=1&pageSize=21",
      "GET /v1/agents?page=2&pageSize=16",
      "GET /v1/agents?page=3&pageSize=14",
      "GET /v1/agents?page=4&pageSize=13",
    ]);
  });

  it("serves `last: 5` without `before` as the last five agents in two requests", async () => {
    expect(summary(await agents({ last: 5 }))).toEqual({
      ids: agentIds.slice(40, 45),
      hasNextPage: false,
      hasPreviousPage: true,
      totalCount: 45,
    });
    // The first request learns the total, the second reads the tail.
    expect(harness.takeUpstreamRequests()).toEqual([
      "GET /v1/agents?page=1&pageSize=5",
      "GET /v1/agents?page=9&pageSize=5",
    ]);
  });

  it("reads a tail that straddles two pages of its own size from one larger page", async () => {
    expect(summary(await agents({ last: 7 })).ids).toEqual(agentIds.slice(38, 45));
    // Items 38..44 sit on one page of 9 (36..44).
    expect(harness.takeUpstreamRequests()).toEqual([
      "GET /v1/agents?page=1&pageSize=7",
      "GET /v1/agents?page=5&pageSize=9",
    ]);
  });

  it("serves first: 10 after item 14 from the one page of 13 that holds items 15..24", async () => {
    const after = await agentCursor(14);
    expect(summary(await agents({ first: 10, after }))).toEqual({
      ids: agentIds.slice(15, 25),
      hasNextPage: true,
      hasPreviousPage: true,
      totalCount: 45,
    });
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/agents?page=2&pageSize=13"]);
  });

  it("serves last/before from one page that holds the window", async () => {
    const before = await agentCursor(20);
    const page = await agents({ last: 5, before });
    // Both are exact over the whole list: agent 20 (`before`) and those after it follow.
    expect(summary(page)).toEqual({
      ids: agentIds.slice(15, 20),
      hasNextPage: true,
      hasPreviousPage: true,
      totalCount: 45,
    });
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/agents?page=3&pageSize=7"]);
  });

  it("walks backward from the end to the start with last/before", async () => {
    const seen: string[] = [];
    const requestsPerPage: string[][] = [];
    let before: string | null = null;
    for (let hasPreviousPage = true; hasPreviousPage; ) {
      const page: ConnectionResult = await agents({ last: 10, before });
      seen.unshift(...summary(page).ids);
      requestsPerPage.push(harness.takeUpstreamRequests());
      ({ hasPreviousPage } = page.pageInfo);
      before = page.pageInfo.startCursor;
    }
    expect(seen).toEqual(agentIds);
    // The tail needs the total first; every other window, with the `before` item, fits one page.
    expect(requestsPerPage).toEqual([
      ["GET /v1/agents?page=1&pageSize=10", "GET /v1/agents?page=3&pageSize=15"],
      ["GET /v1/agents?page=3&pageSize=12"],
      ["GET /v1/agents?page=2&pageSize=13"],
      ["GET /v1/agents?page=1&pageSize=16"],
      ["GET /v1/agents?page=1&pageSize=6"],
    ]);
  });

  it("serves the range between after and before", async () => {
    const [after, before] = [await agentCursor(9), await agentCursor(14)];
    expect(summary(await agents({ after, before }))).toEqual({
      ids: agentIds.slice(10, 14),
      hasNextPage: true,
      hasPreviousPage: true,
      totalCount: 45,
    });
    // Items 10..13 sit on page 3 of 5 (10..14).
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/agents?page=2&pageSize=8"]);
  });

  it("serves the agents' fields from the list answer, without a GET per agent", async () => {
    const { body } = await harness.graphql(`{ agents(first: 3) { nodes { id status name } } }`);
    expect(body.errors).toBeUndefined();
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/agents?page=1&pageSize=4"]);
  });

  it("reports the end exactly: no next page after the last agent", async () => {
    const after = await agentCursor(44);
    expect(summary(await agents({ first: 10, after }))).toEqual({
      ids: [],
      hasNextPage: false,
      hasPreviousPage: true,
      totalCount: 45,
    });
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/agents?page=4&pageSize=14"]);
  });
});
