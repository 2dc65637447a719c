import { describe, expect, it } from "vitest";
import { closedAfterEachTest } from "../support/closing.ts";
import { startHarness } from "./harness.ts";
import { startHeldUpstream } from "./held-upstream.ts";

// A read that starts after a write was answered never answers older than that write: it joins
// no call in flight from before it, and no cache entry read before it counts or is kept. The
// upstream holds each read until the test releases it, so the order is the test's, not luck's.

const closing = closedAfterEachTest();
const WRITER = "Bearer k_writer";
const READER = "Bearer k_reader";
const OTHER = "Bearer k_other";

type Cost = { upstreamCalls: number; joinedCalls?: number; cacheHits?: number };
const costOf = (answer: { body: { extensions?: Record<string, unknown> } }) =>
  answer.body.extensions?.cost as Cost;

async function setUp(sharing: { coalesce?: boolean; cacheTtlS?: number }) {
  const upstream = closing(
    await startHeldUpstream({
      keys: { k_writer: "org_a", k_reader: "org_a", k_other: "org_b" },
      agents: { org_a: ["agt_a1"], org_b: ["agt_b1"] },
      readOnly: ["k_reader"],
    }),
  );
  const harness = closing(
    await startHarness({
      upstream: { baseUrl: upstream.url, maxRetries: 0 },
      gateway: { sharing },
    }),
  );
  const readAgent = (authorization = WRITER) =>
    harness.graphql('{ agent(id: "agt_a1") { id name } }', {}, { authorization });
  const rename = (name: string, authorization = WRITER) =>
    harness.graphql(
      `mutation { updateAgent(id: "agt_a1", input: { name: "${name}" }) { agent { name } } }`,
      {},
      { authorization },
    );
  return { upstream, harness, readAgent, rename };
}

const nameOf = (answer: { body: { data?: unknown } }) =>
  (answer.body.data as { agent: { name: string } | null } | null | undefined)?.agent?.name;

describe("read-your-writes", () => {
  it("a read after a write joins no call that started before it (default settings)", async () => {
    const { upstream, readAgent, rename } = await setUp({});
    // The key proves itself first, so no probe stands between the steps below.
    expect(nameOf(await readAgent())).toBe("agt_a1 v0");
    upstream.hold(true);
    const slow = readAgent();
    await upstream.held(1);
    upstream.hold(false);
    const renamed = await rename("after");
    expect(renamed.body.data).toEqual({ updateAgent: { agent: { name: "after" } } });
    upstream.hold(true);
    const after = readAgent();
    await upstream.held(2);
    upstream.release();
    expect(nameOf(await slow)).toBe("agt_a1 v0");
    const answer = await after;
    expect(nameOf(answer)).toBe("after");
    expect(costOf(answer)).toMatchObject({ upstreamCalls: 1 });
    expect(costOf(answer).joinedCalls ?? 0).toBe(0);
  });

  it("with the cache on, a read in flight across a write never leaves its answer behind", async () => {
    const { upstream, readAgent, rename } = await setUp({ cacheTtlS: 60 });
    await readAgent(OTHER);
    upstream.hold(true);
    const slow = readAgent();
    await upstream.held(1);
    upstream.hold(false);
    await rename("after");
    upstream.hold(true);
    const after = readAgent();
    await upstream.held(2);
    upstream.release();
    await slow;
    expect(nameOf(await after)).toBe("after");
    upstream.hold(false);
    // Whatever was kept is the written state, for every later read.
    for (let i = 0; i < 3; i++) expect(nameOf(await readAgent())).toBe("after");
  });

  it("a read in flight when a write lands is not kept, coalescing off", async () => {
    const { upstream, readAgent, rename } = await setUp({ cacheTtlS: 60, coalesce: false });
    await readAgent();
    await rename("before");
    upstream.hold(true);
    const slow = readAgent();
    await upstream.held(1);
    upstream.hold(false);
    await rename("after");
    upstream.release();
    expect(nameOf(await slow)).toBe("before");
    const next = await readAgent();
    expect(nameOf(next)).toBe("after");
    expect(costOf(next).cacheHits ?? 0).toBe(0);
  });

  it("a write through one key invalidates the resource for every key of it", async () => {
    const { readAgent, rename } = await setUp({ cacheTtlS: 60 });
    expect(nameOf(await readAgent(READER))).toBe("agt_a1 v0");
    expect(costOf(await readAgent(READER))).toMatchObject({ cacheHits: 1 });
    await rename("renamed by the writer");
    const answer = await readAgent(READER);
    expect(nameOf(answer)).toBe("renamed by the writer");
    expect(costOf(answer).cacheHits ?? 0).toBe(0);
  });
});

describe("a refusal evicts", () => {
  it("after a 401 for a key, none of its cached answers is served until a call succeeds", async () => {
    const { upstream, harness } = await setUp({ cacheTtlS: 60 });
    const both = '{ organization { id name } agent(id: "agt_a1") { id name } }';
    await harness.graphql(both, {}, { authorization: WRITER });
    expect(costOf(await harness.graphql(both, {}, { authorization: WRITER }))).toMatchObject({
      cacheHits: 2,
    });
    upstream.revoke("k_writer");
    const refused = await harness.graphql(
      '{ agent(id: "agt_missing") { id } }',
      {},
      {
        authorization: WRITER,
      },
    );
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    upstream.requests.length = 0;
    const after = await harness.graphql(both, {}, { authorization: WRITER });
    expect(costOf(after).cacheHits ?? 0).toBe(0);
    expect(after.body.data ?? {}).not.toHaveProperty("agent.name");
    expect(upstream.requests.length).toBeGreaterThan(0);
    // The key comes back: its reads go upstream until one succeeds, then the cache serves again.
    upstream.restore("k_writer");
    const back = await harness.graphql(both, {}, { authorization: WRITER });
    expect(costOf(back).cacheHits ?? 0).toBe(0);
    expect(back.body.data).toMatchObject({ agent: { name: "agt_a1 v0" } });
    await harness.graphql(both, {}, { authorization: WRITER });
    expect(costOf(await harness.graphql(both, {}, { authorization: WRITER }))).toMatchObject({
      cacheHits: 2,
    });
  });
});
