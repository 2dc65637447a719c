import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createGateway } from "../../src/gateway/create-gateway.ts";
import { createGatewayLogger } from "../../src/gateway/observability/logger.ts";
import { listen } from "../../src/gateway/transport/server.ts";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { MISSING_AGENT } from "./errors-support.ts";
import { selectionOf } from "./generated-selections.ts";
import { ACME, FAST_PATH, type Harness, startHarness } from "./harness.ts";
import { chunks, postTakingParts } from "./incremental-support.ts";

const DASHBOARD = `{
  organization { name timezone }
  agent(id: "${SEED_IDS.acmeAgent}") { id name status voiceConfigs { id } stats }
  conversations(first: 20) { nodes { id status agent { id name } contact { id stats } } }
  campaigns(first: 5) { totalCount nodes { id name status } }
}`;

/** How this gateway's queries ran so far, by the metric `voicegraph_query_runs_total`. */
async function runs(harness: Harness): Promise<Record<string, number>> {
  const metric = await harness.gateway.metrics.compiledRuns.get();
  return Object.fromEntries(metric.values.map(({ labels, value }) => [labels.how, value]));
}

/** A body without the rate-limit figures, which the upstream counts down from run to run. */
function withoutRateLimit<T extends { extensions?: Record<string, unknown> }>(body: T): T {
  const { rateLimit: _counted, ...extensions } = body.extensions ?? {};
  return { ...body, extensions };
}

describe("compiled execution (graphql-jit) answers as graphql-js does", () => {
  const closing = closedAfterEachTest();

  /**
   * Over one sandbox, the harness's gateway compiling every query from its first run and a
   * second gateway that never compiles: each answers as `{ status, body, bytes }`, without the
   * figures that differ from one request to the next (request IDs, rate-limit figures).
   */
  async function twoGateways() {
    const harness = closing(await startHarness({ gateway: { compileAfter: 1 } }));
    const other = createGateway({ upstream: harness.upstream, logging: false, compileAfter: 0 });
    const server = closing(await listen(other, 0, "127.0.0.1", { fastPath: FAST_PATH }));
    const ask =
      (url: string) =>
      async (query: string, variables: object = {}) => {
        const response = await fetch(`${url}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: ACME },
          body: JSON.stringify({ query, variables }),
        });
        const text = (await response.text()).replace(/"requestId":"[^"]*"/g, '"requestId":"…"');
        const body = withoutRateLimit(JSON.parse(text));
        // The bytes too: toEqual alone would not see fields answered in another order.
        return { status: response.status, body, bytes: JSON.stringify(body) };
      };
    return { harness, compiled: ask(harness.url), interpreted: ask(server.url) };
  }

  it("compiles a query at its second run, and answers it the same", async () => {
    // A frozen sandbox clock: live calls' durations must not tick between the two runs.
    const frozenMs = Date.now();
    const harness = closing(
      await startHarness({ gateway: { compileAfter: 2 }, sandbox: { now: () => frozenMs } }),
    );

    const first = await harness.graphql(DASHBOARD);
    const firstCalls = harness.takeUpstreamRequests().sort();
    const second = await harness.graphql(DASHBOARD);
    const secondCalls = harness.takeUpstreamRequests().sort();

    expect(await runs(harness)).toEqual({ interpreted: 1, compiled: 1 });
    expect(first.body.errors).toBeUndefined();
    expect(withoutRateLimit(second.body)).toEqual(withoutRateLimit(first.body));
    expect(secondCalls).toEqual(firstCalls);
  });

  it("answers a query that meets an error with graphql-js's errors, each call made once", async () => {
    const harness = closing(await startHarness({ gateway: { compileAfter: 1 } }));

    const response = await harness.graphql(MISSING_AGENT.query);

    expect(await runs(harness)).toEqual({ compiled: 1 });
    expect(response.body.data).toEqual(MISSING_AGENT.data);
    expect(response.body.errors).toEqual(MISSING_AGENT.errors);
    expect(harness.takeUpstreamRequests().sort()).toEqual(MISSING_AGENT.calls);
  });

  it("answers once, as graphql-js does, a query whose errors each null a place of their own", async () => {
    const { harness, compiled, interpreted } = await twoGateways();
    // Two missing agents in a list and one at the root, each error nulling its own place.
    const query = `{
      nodes(ids: ["agt_acme_missing_1", "${SEED_IDS.acmeAgent}", "agt_acme_missing_2"]) { id }
      agent(id: "agt_acme_missing_3") { id }
      organization { name }
    }`;

    const mine = await compiled(query);
    const theirs = await interpreted(query);

    expect(await runs(harness)).toEqual({ compiled: 1 });
    expect(theirs.body.errors?.map((error: { path: unknown }) => error.path)).toEqual([
      ["nodes", 0],
      ["nodes", 2],
      ["agent"],
    ]);
    expect(mine).toEqual(theirs);
    // Each gateway read each resource once.
    const calls = [
      "GET /v1/agents/agt_acme_missing_1",
      "GET /v1/agents/agt_acme_missing_2",
      "GET /v1/agents/agt_acme_missing_3",
      `GET /v1/agents/${SEED_IDS.acmeAgent}`,
      "GET /v1/organization",
    ];
    expect(harness.takeUpstreamRequests().sort()).toEqual([...calls, ...calls].sort());
  });

  /**
   * The agent answered by the upstream as `body` (a 200 of the wrong shape), asked with `fields`
   * beside the organization, of the compiling gateway and then of the one that never compiles.
   */
  async function agentAnsweredAs(body: object, fields: string) {
    const { harness, compiled, interpreted } = await twoGateways();
    harness.sandbox.injectFault({
      path: `/v1/agents/${SEED_IDS.acmeAgent}`,
      times: 2,
      status: 200,
      body,
    });
    const query = `{ organization { name } agent(id: "${SEED_IDS.acmeAgent}") { ${fields} } }`;
    const mine = await compiled(query);
    const theirs = await interpreted(query);
    return { harness, mine, theirs };
  }

  it("propagates a null as graphql-js does when a non-null field fails", async () => {
    // An agent without its ID: `id` is non-null, so the agent is null beside the error.
    const { harness, mine, theirs } = await agentAnsweredAs(
      { name: "No ID", status: "ACTIVE" },
      "id name",
    );

    expect(await runs(harness)).toEqual({ compiled: 1 });
    expect(theirs.body.errors?.length).toBeGreaterThan(0);
    expect(mine).toEqual(theirs);
  });

  it("answers a null in a non-null field as graphql-js does, masked alike", async () => {
    // An agent without its languages: `primaryLanguage` is non-null; graphql itself refuses the null.
    const { harness, mine, theirs } = await agentAnsweredAs(
      { id: SEED_IDS.acmeAgent, status: "ACTIVE" },
      "id primaryLanguage",
    );

    expect(await runs(harness)).toEqual({ compiled: 1 });
    expect(theirs.body.errors?.length).toBeGreaterThan(0);
    expect(mine).toEqual(theirs);
  });

  it.each([
    ["id", "primaryLanguage"],
    ["primaryLanguage", "id"],
  ])(
    "names the first of two errors that null one place (%s, then %s), running once",
    async (...fields) => {
      // Neither ID nor languages: both non-null fields fail, and both errors null the agent.
      // graphql-js completes the fields in order and stops at the first; graphql-jit records both.
      const { harness, mine, theirs } = await agentAnsweredAs(
        { name: "No ID", status: "ACTIVE" },
        fields.join(" "),
      );

      expect(await runs(harness)).toEqual({ compiled: 1 });
      expect(theirs.body.errors).toHaveLength(1);
      expect(theirs.body.errors?.[0]?.path).toEqual(["agent", fields[0]]);
      expect(mine).toEqual(theirs);
      expect(harness.takeUpstreamRequests().sort()).toEqual([
        `GET /v1/agents/${SEED_IDS.acmeAgent}`,
        `GET /v1/agents/${SEED_IDS.acmeAgent}`,
        "GET /v1/organization",
        "GET /v1/organization",
      ]);
    },
  );

  it("logs an error it leaves out under a null, as yoga logs each error it masks", async () => {
    const lines: string[] = [];
    const logger = createGatewayLogger("debug", { write: (line: string) => lines.push(line) });
    const harness = closing(
      await startHarness({
        gateway: { compileAfter: 1, logging: logger },
        upstream: { maxRetries: 0 },
      }),
    );
    const agent = `/v1/agents/${SEED_IDS.acmeAgent}`;
    const withoutLanguages = { id: SEED_IDS.acmeAgent, name: "Mute", status: "ACTIVE" };
    harness.sandbox.injectFault({ path: agent, times: 1, status: 200, body: withoutLanguages });
    harness.sandbox.injectFault({ path: `${agent}/stats`, times: 1, status: 500 });

    // `stats` fails upstream, and `primaryLanguage` (non-null, missing) nulls the agent around it.
    const query = `{ agent(id: "${SEED_IDS.acmeAgent}") { stats primaryLanguage } }`;
    const response = await harness.graphql(query);

    expect(response.body.data).toEqual({ agent: null });
    expect(response.body.errors?.map((error) => error.path)).toEqual([
      ["agent", "primaryLanguage"],
    ]);
    expect(harness.takeUpstreamRequests()).toContain(`GET ${agent}/stats`);
    const failed = lines.map((line) => JSON.parse(line)).filter((e) => e.msg === "upstream failed");
    expect(failed).toEqual([expect.objectContaining({ status: 500 })]);
  });

  it("never compiles a mutation, introspection, or @defer for a client that takes parts", async () => {
    const harness = closing(await startHarness({ gateway: { compileAfter: 1 } }));
    const mutation = `mutation { updateAgent(id: "${SEED_IDS.acmeAgent}", input: { name: "Front desk" }) { agent { name } } }`;
    const deferred = async () => {
      const query = "{ organization { name } ... @defer { agents(first: 1) { totalCount } } }";
      return (await chunks(await postTakingParts(harness.url, query))).join("");
    };

    for (let run = 0; run < 2; run++) {
      const updated = await harness.graphql(mutation);
      expect(updated.body.data).toEqual({ updateAgent: { agent: { name: "Front desk" } } });
      const introspected = await harness.graphql("{ __schema { queryType { name } } }");
      expect(introspected.body.data).toEqual({ __schema: { queryType: { name: "Query" } } });
      expect(await deferred()).toContain('"hasNext":false');
    }

    // Queries only are counted: the introspection and the deferred ones ran on graphql-js.
    expect(await runs(harness)).toEqual({ interpreted: 4 });
    expect(harness.takeUpstreamRequests().filter((call) => call.startsWith("PATCH"))).toEqual([
      `PATCH /v1/agents/${SEED_IDS.acmeAgent}`,
      `PATCH /v1/agents/${SEED_IDS.acmeAgent}`,
    ]);
  });

  it("answers any selection of aliased, skipped and included fields as graphql-js does", async () => {
    const { harness, compiled, interpreted } = await twoGateways();
    // No field here changes between two reads of one sandbox (a live call's duration would).
    const agentFields = [
      "id",
      "name",
      "status",
      "greeting",
      "model",
      "metadata",
      "voiceConfigs { id }",
    ];
    const conversationFields = [
      "id",
      "status",
      "direction",
      "channel",
      "agent { id name }",
      "contact { id }",
    ];
    await fc.assert(
      fc.asyncProperty(
        selectionOf(agentFields),
        selectionOf(conversationFields),
        fc.integer({ min: 0, max: 4 }),
        fc.boolean(),
        async (agent, conversation, first, flag) => {
          const query = `query Q($flag: Boolean!, $first: Int) {
            agent(id: "${SEED_IDS.acmeAgent}") { __typename @include(if: $flag) ${agent} }
            conversations(first: $first) { totalCount nodes { ${conversation} } }
          }`;
          const variables = { flag, first };
          expect(await compiled(query, variables)).toEqual(await interpreted(query, variables));
        },
      ),
      { numRuns: 25 },
    );
    expect((await runs(harness)).compiled).toBeGreaterThan(0);
  });

  it("never compiles an operation of more than 500 fields, its fragments expanded", async () => {
    const harness = closing(await startHarness({ gateway: { compileAfter: 1 } }));
    // 25 aliases × 24 fields = 600 fields, from a document of a few hundred characters.
    const query = `
      fragment Ten on Agent { id name status greeting model metadata systemPrompt primaryLanguage createdAt updatedAt }
      fragment More on Agent { conversations(first: 1) { nodes { agent { ...Ten } } } }
      { ${Array.from({ length: 25 }, (_, i) => `a${i}: agent(id: "${SEED_IDS.acmeAgent}") { ...Ten ...More }`).join(" ")} }`;

    for (let run = 0; run < 2; run++) {
      const response = await harness.graphql(query);
      expect(response.body.errors).toBeUndefined();
    }

    expect(await runs(harness)).toEqual({ interpreted: 2 });
  });

  it("compiles no more than its time budget allows; the rest run on graphql-js", async () => {
    const harness = closing(
      await startHarness({ gateway: { compileAfter: 1, compileMsPerSecond: 0.001 } }),
    );

    // The first compilation spends more than the whole budget, which refills too slowly to matter.
    for (const field of ["name", "status"]) {
      for (let run = 0; run < 2; run++) {
        const response = await harness.graphql(
          `{ agent(id: "${SEED_IDS.acmeAgent}") { ${field} } }`,
        );
        expect(response.body.errors).toBeUndefined();
      }
    }

    expect(await runs(harness)).toEqual({ compiled: 2, interpreted: 2 });
  });

  it("starts the root field that leads to the most calls first, answering in the document's order", async () => {
    // One call of the key at a time, so the upstream sees the calls in the order they start;
    // a frozen sandbox clock, so live calls' durations do not tick between the two runs.
    const frozenMs = Date.now();
    const harness = closing(
      await startHarness({
        gateway: {
          compileAfter: 2,
          bounds: { upstreamConnectionsPerKey: 1, upstreamQueuePerKey: 64 },
        },
        sandbox: { now: () => frozenMs },
      }),
    );
    // The list, whose items load more, comes last in the document.
    const listLast = `{
      organization { name }
      campaigns(first: 2) { nodes { id } }
      conversations(first: 5) { nodes { id agent { id name } contact { id } } }
    }`;

    const interpreted = await harness.graphql(listLast);
    const interpretedCalls = harness.takeUpstreamRequests();
    const compiled = await harness.graphql(listLast);
    const compiledCalls = harness.takeUpstreamRequests();

    expect(interpretedCalls[0]).toBe("GET /v1/organization");
    expect(compiledCalls[0]).toMatch(/^GET \/v1\/conversations\?/);
    expect([...compiledCalls].sort()).toEqual([...interpretedCalls].sort());
    expect(compiled.body.errors).toBeUndefined();
    expect(JSON.stringify(compiled.body.data)).toBe(JSON.stringify(interpreted.body.data));
    expect(Object.keys(compiled.body.data ?? {})).toEqual([
      "organization",
      "campaigns",
      "conversations",
    ]);
  });

  it("answers root fields in any order, skipped, included and aliased, as graphql-js does", async () => {
    const { harness, compiled, interpreted } = await twoGateways();
    // Root fields of one call and lists whose items load more; none changes between two reads.
    const roots = [
      "organization { name timezone }",
      `agent(id: "${SEED_IDS.acmeAgent}") { id name voiceConfigs { id } }`,
      "campaigns(first: 2) { nodes { id name } }",
      "conversations(first: $first) { nodes { id agent { id name } contact { id } } }",
      "toolCatalog { name }",
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray(roots, { minLength: 2 }),
        selectionOf(["organization { name }", "campaigns(first: 1) { totalCount }"], 2),
        fc.integer({ min: 0, max: 4 }),
        fc.boolean(),
        async (picked, aliased, first, flag) => {
          const paged = picked.some((field) => field.includes("$first"));
          const query = `query Q($flag: Boolean!${paged ? ", $first: Int" : ""}) {
            __typename @include(if: $flag) ${picked.join(" ")} ${aliased}
          }`;
          const variables = paged ? { flag, first } : { flag };
          expect(await compiled(query, variables)).toEqual(await interpreted(query, variables));
        },
      ),
      { numRuns: 30 },
    );
    expect((await runs(harness)).compiled).toBeGreaterThan(0);
  });
});
