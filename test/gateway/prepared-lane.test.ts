import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answeredMediaType } from "../../src/gateway/assembly/yoga-adapter.ts";
import { isJsonOnly } from "../../src/gateway/lane/fast-path-eligibility.ts";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { schema } from "../../src/schema/index.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { WAIT_MS } from "../support/wait.ts";
import { selectionOf } from "./generated-selections.ts";
import { ACME, GLOBEX, type Harness, startHarness } from "./harness.ts";
import { type Answer, send } from "./raw-http.ts";

/**
 * The prepared lane (src/gateway/lane/prepared-lane.ts): a query yoga has validated and compiled
 * runs again without yoga's request machinery. Its first run is yoga's; every later one is the
 * lane's when it answers: each test compares the two, so the lane keeps every promise of yoga's.
 */

/** One answer off the wire, without what differs from one request to the next by design. */
async function post(
  harness: Harness,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Answer> {
  const answer = await send(harness.url, {
    headers: {
      "content-type": "application/json",
      accept: "*/*",
      authorization: ACME,
      "x-request-id": "prepared-lane-test",
      ...headers,
    },
    body: JSON.stringify({ query, variables }),
  });
  // The upstream counts its rate limit down from one request to the next, and names each answer.
  return {
    ...answer,
    headers: answer.headers.filter((line) => !/^x-ratelimit-remaining:/i.test(line)),
    body: answer.body
      .replace(/"remaining":\d+/g, '"remaining":0')
      .replace(/"requestId":"req_\w+"/g, '"requestId":"req_…"'),
  };
}

async function laneAnswers(harness: Harness): Promise<number> {
  const metric = await harness.gateway.metrics.preparedAnswers.get();
  return metric.values[0]?.value ?? 0;
}

describe("the prepared lane", () => {
  const closing = closedAfterEachTest();
  // Compiled from the first run, on the fast path (the lane is one of its steps), whatever the project.
  const start = (gateway: Parameters<typeof startHarness>[0] = {}) =>
    startHarness({
      ...gateway,
      gateway: { compileAfter: 1, ...gateway.gateway },
      listen: { fastPath: true },
    }).then(closing);

  it("answers a query yoga has validated and compiled, byte for byte as yoga answered it", async () => {
    const harness = await start();
    const query = "query Agent($id: ID!) { agent(id: $id) { id name status greeting } }";
    const variables = { id: SEED_IDS.acmeAgent };

    const byYoga = await post(harness, query, variables);
    expect(await laneAnswers(harness)).toBe(0);
    harness.takeUpstreamRequests();
    const byLane = await post(harness, query, variables);

    expect(await laneAnswers(harness)).toBe(1);
    expect(byLane).toEqual(byYoga);
    expect(byLane.status).toBe(200);
    expect(byLane.headers).toContain("x-request-id: prepared-lane-test");
    expect(harness.takeUpstreamRequests()).toEqual([`GET /v1/agents/${SEED_IDS.acmeAgent}`]);
  });

  it("answers any selection, variables and Accept header as yoga does", async () => {
    // Every text compiled at once: the compile budget would leave some to graphql-js.
    const harness = await start({ gateway: { compileMsPerSecond: 1e9 } });
    const agentFields = ["id", "name", "status", "greeting", "model", "voiceConfigs { id }"];
    const selection = selectionOf(agentFields, 4);
    // JSON-only Accept headers (the fast path's), with the parameters and orders yoga weighs.
    const mediaType = fc.constantFrom(
      "application/json",
      "application/graphql-response+json",
      "*/*",
      "application/*",
      "APPLICATION/JSON",
    );
    const parameter = fc.constantFrom("", ";charset=utf-8", "; charset=latin1", ";q=0.9", " ; q=0");
    const accept = fc.option(
      fc
        .array(fc.tuple(mediaType, parameter), { minLength: 1, maxLength: 3 })
        .map((items) => items.map(([type, p]) => `${type}${p}`).join(", ")),
      { nil: undefined },
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(selection, fc.boolean(), accept, async (fields, flag, acceptHeader) => {
        // A text of its own each time: its first run is yoga's, its second the lane's.
        run += 1;
        const query = `query Q${run}($flag: Boolean!, $id: ID!) {
          agent(id: $id) { __typename @include(if: $flag) ${fields} }
        }`;
        const variables = { flag, id: SEED_IDS.acmeAgent };
        const headers: Record<string, string> =
          acceptHeader === undefined ? {} : { accept: acceptHeader };
        const byYoga = await post(harness, query, variables, headers);
        const before = await laneAnswers(harness);
        const second = await post(harness, query, variables, headers);
        expect(second).toEqual(byYoga);
        // The lane answers where the fast path serves and yoga answers JSON; elsewhere, yoga.
        const sent = acceptHeader ?? "*/*"; // post's own
        const lane = isJsonOnly(sent) && answeredMediaType(sent) !== undefined;
        expect(await laneAnswers(harness)).toBe(before + (lane ? 1 : 0));
      }),
      { numRuns: 40 },
    );
    expect(await laneAnswers(harness)).toBeGreaterThan(0);
  });

  it("hands an answer with an error to yoga, which reuses the lane's reads", async () => {
    const harness = await start();
    const query = "query Agent($id: ID!) { agent(id: $id) { id name } }";
    const missing = { id: "agt_acme_missing" };
    await post(harness, query, { id: SEED_IDS.acmeAgent });
    harness.takeUpstreamRequests();

    const first = await post(harness, query, missing);
    const second = await post(harness, query, missing);

    expect(await laneAnswers(harness)).toBe(0);
    expect(second).toEqual(first);
    expect(JSON.parse(first.body).errors[0].extensions.code).toBe("NOT_FOUND");
    // One read per operation: yoga's run answered from what the lane had read.
    expect(harness.takeUpstreamRequests()).toEqual([
      "GET /v1/agents/agt_acme_missing",
      "GET /v1/agents/agt_acme_missing",
    ]);
    const runs = await harness.gateway.metrics.operations.get();
    expect(runs.values.find((v) => v.labels.outcome === "NOT_FOUND")?.value).toBe(2);
  });

  it("runs a query that meets an error once, whether yoga or the lane ran it", async () => {
    // Counted where every run passes: graphql-jit takes a field's resolver as it compiles.
    const field = schema.getQueryType()?.getFields().agent;
    const resolve = field?.resolve;
    if (field === undefined || resolve === undefined) throw new Error("no Query.agent resolver");
    let runs = 0;
    field.resolve = (...args) => {
      runs += 1;
      return resolve(...args);
    };
    try {
      const harness = await start();
      const query = "query Agent($id: ID!) { agent(id: $id) { id name } }";
      const missing = { id: "agt_acme_missing" };
      await post(harness, query, { id: SEED_IDS.acmeAgent });
      runs = 0;
      const byYoga = await post(harness, query, missing);
      const yogaRuns = runs;
      runs = 0;
      const afterLane = await post(harness, query, missing);
      expect(afterLane).toEqual(byYoga);
      // yoga's own path answers the compiled run's errors; after the lane's compiled run, yoga
      // answers the lane's result: neither runs the operation again.
      expect(yogaRuns).toBe(1);
      expect(runs).toBe(1);
    } finally {
      field.resolve = resolve;
    }
  });

  it("leaves every refusal to yoga, before anything goes upstream", async () => {
    const harness = await start();
    const query =
      "query Agents($id: ID!, $first: Int) { agent(id: $id) { id } agents(first: $first) { nodes { id conversations(first: 50) { nodes { id } } } } }";
    const fine = { id: SEED_IDS.acmeAgent, first: 1 };
    await post(harness, query, fine);
    harness.takeUpstreamRequests();
    const refusals: Array<[Record<string, unknown>, Record<string, string>, string]> = [
      [fine, { authorization: "" }, "UNAUTHENTICATED"],
      [fine, { authorization: `Bearer ${"k".repeat(5000)}` }, "UNAUTHENTICATED"],
      [{ ...fine, first: "many" }, {}, "BAD_USER_INPUT"],
      [{ ...fine, id: "not an id" }, {}, "BAD_USER_INPUT"],
      [{ ...fine, id: "\ud800" }, {}, "BAD_USER_INPUT"],
      [{ ...fine, first: 100 }, {}, "COST_LIMIT_EXCEEDED"],
    ];
    for (const [variables, headers, code] of refusals) {
      const first = await post(harness, query, variables, headers);
      const second = await post(harness, query, variables, headers);
      expect(second).toEqual(first);
      // Accept */* is answered in plain JSON: a request error is 200, a missing key still 401.
      expect(first.status).toBe(code === "UNAUTHENTICATED" ? 401 : 200);
      expect(JSON.parse(first.body).errors[0].extensions.code).toBe(code);
    }
    expect(harness.takeUpstreamRequests()).toEqual([]);
    expect(await laneAnswers(harness)).toBe(0);
  });

  it("gives each key its own organization's answer to one prepared text", async () => {
    const harness = await start();
    const query = "{ organization { name } }";
    const names = [];
    for (const key of [ACME, GLOBEX, ACME, GLOBEX, ACME]) {
      const answer = await post(harness, query, {}, { authorization: key });
      names.push(JSON.parse(answer.body).data.organization.name);
    }
    expect(names).toEqual([
      "Acme Health",
      "Globex Corporation",
      "Acme Health",
      "Globex Corporation",
      "Acme Health",
    ]);
    // The first run was yoga's: it prepared the text for every key.
    expect(await laneAnswers(harness)).toBe(4);
  });

  it("holds the operation's deadline", async () => {
    const harness = await start({
      gateway: { operationDeadlineMs: 1_500 },
      upstream: { timeoutMs: 60_000 },
    });
    const query = `query Agent($id: ID!) { agent(id: $id) { name stats } }`;
    const variables = { id: SEED_IDS.acmeAgent };
    await post(harness, query, variables);
    harness.sandbox.injectFault({ path: /^\/v1\/agents\/[^/]+\/stats$/, hang: true });

    const answer = JSON.parse((await post(harness, query, variables)).body);

    expect(answer.data.agent.name).toBe("Reception");
    expect(answer.errors).toEqual([
      expect.objectContaining({
        path: ["agent", "stats"],
        extensions: expect.objectContaining({
          code: "UPSTREAM_UNAVAILABLE",
          reason: "OPERATION_DEADLINE",
        }),
      }),
    ]);
  });

  it("stands aside for a query with a directive on its operation, @defer or introspection", async () => {
    const harness = await start();
    const queries = [
      "query Live @live { organization { name } }",
      "{ organization { name ... @defer { timezone } } }",
      "{ __schema { queryType { name } } organization { name } }",
    ];
    for (const query of queries) {
      for (let run = 0; run < 3; run++) await post(harness, query);
    }
    expect(await laneAnswers(harness)).toBe(0);
  });

  it("keeps no document yoga's parser cache has let go of", async () => {
    // Room in yoga's document cache for about two texts of this length.
    const harness = await start({ gateway: { bounds: { documentCacheMaxBytes: 96 * 200 } } });
    const text = (name: string) => `query ${name} { organization { name timezone } }`.padEnd(90);
    await post(harness, text("A"));
    await post(harness, text("A"));
    expect(await laneAnswers(harness)).toBe(1);

    for (const name of ["B", "C", "D"]) await post(harness, text(name));
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    // A's document went with yoga's cache: once a collection has run after A's last request
    // let go of it, yoga parses A again and answers it. Until then (a busy machine may still hold
    // that request's objects) the lane answers it, which changes nothing; a strong hold would
    // keep the lane answering to the bound.
    let lane = await laneAnswers(harness);
    const until = Date.now() + WAIT_MS;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      gc();
      await post(harness, text("A"));
      const now = await laneAnswers(harness);
      if (now === lane) break;
      expect(Date.now()).toBeLessThan(until);
      lane = now;
    }
    await post(harness, text("A"));
    expect(await laneAnswers(harness)).toBe(lane + 1);
  });
});
