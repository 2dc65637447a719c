import { isDeepStrictEqual } from "node:util";
import { expect } from "vitest";
import { ALLOWED_DIFFERENCES } from "./matrix-differences.ts";
import {
  AGENT,
  APQ_QUERY,
  LIVE_CONVERSATION,
  type MatrixGateway,
  normalise,
  ORIGINAL_NAME,
  type Run,
} from "./settings-matrix.ts";

/** Each corpus item's normalised answers, by the item's name. */
export type Answers = Record<string, unknown>;

type Errors = Array<{ extensions?: { code?: string } }> | undefined;
const codeOf = (body: Record<string, unknown>) => (body.errors as Errors)?.[0]?.extensions?.code;

/** The corpus, run the same way under every run. */
export async function corpus(
  run: Run,
  gateway: MatrixGateway,
  /** Told before the logout, the last item: a fleet's test checks other instances then. */
  beforeLogout: () => Promise<void> = async () => undefined,
): Promise<Answers> {
  const answers: Answers = {};
  const item = async (name: string, body: () => Promise<unknown>) => {
    answers[name] = normalise(await body());
  };
  await item("node", () => gateway.send("node", { id: AGENT }));
  await item("agent", () => gateway.send("agent", { id: AGENT }));
  await item("conversations", () => gateway.send("conversations"));
  await item("upstream NOT_FOUND", () => gateway.send("agent", { id: "agt_acme_unknown" }));
  await item("gateway BAD_USER_INPUT", () => gateway.send("tooMany"));
  await item("pagination", () => pagination(gateway));
  await item("mutation", async () => {
    const renamed = await gateway.send("rename", { id: AGENT, name: "Matrix reception" });
    const read = await gateway.send("node", { id: AGENT });
    const restored = await gateway.send("rename", { id: AGENT, name: ORIGINAL_NAME });
    return [renamed, read, restored];
  });
  await item("APQ", async () => {
    const hash = await sha256(APQ_QUERY);
    const persistedQuery = { extensions: { persistedQuery: { version: 1, sha256Hash: hash } } };
    return [
      await gateway.post(persistedQuery),
      // Read once as text first: with the read cache on, the registration's answer is a hit.
      await gateway.post({ query: APQ_QUERY }),
      await gateway.post({ query: APQ_QUERY, ...persistedQuery }),
      await gateway.post(persistedQuery),
    ];
  });
  await item("live query", async () => {
    const live = gateway.follow("live", { id: AGENT });
    await live.count(1);
    await gateway.send("rename", { id: AGENT, name: "Matrix live" });
    await live.count(2);
    live.stop();
    await gateway.send("rename", { id: AGENT, name: ORIGINAL_NAME });
    return live.results.slice(0, 2);
  });
  await item("subscription", async () => {
    const status = gateway.follow("status", { id: LIVE_CONVERSATION });
    const [first] = await status.count(1);
    status.stop();
    return first;
  });
  await item("subscription over graphql-ws", async () => {
    const status = gateway.follow("status", { id: LIVE_CONVERSATION }, "graphql-ws");
    const [first] = await status.count(1);
    status.stop();
    return first;
  });
  await item("malformed requests", () => malformed(gateway));
  if (run.mcp === "on") {
    const client = await gateway.mcp();
    await item("MCP tools/list", async () =>
      (await client.listTools()).tools.map((tool) => tool.name).sort(),
    );
    await item("MCP tools/call", async () => {
      const result = await client.callTool({ name: "MatrixAgent", arguments: { id: AGENT } });
      return result.structuredContent;
    });
  } else {
    const off = async () => {
      const response = await fetch(`${gateway.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", ...gateway.headers() },
        body: "{}",
      });
      return { status: response.status, body: await response.json() };
    };
    await item("MCP tools/list", off);
    await item("MCP tools/call", off);
  }
  if (run.federation === "on")
    await item("_entities", () => gateway.send("entities", { id: AGENT }));
  await beforeLogout();
  if (run.auth !== "passthrough")
    await item("logout", async () => [
      await gateway.logout(),
      (await gateway.send("node", { id: AGENT })).status,
    ]);
  return answers;
}

const sha256 = async (text: string) =>
  Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))).toString(
    "hex",
  );

/** Every page of `agents`, forwards to the end and backwards to the start. */
async function pagination(gateway: MatrixGateway) {
  const pages: unknown[] = [];
  let after: string | null = null;
  for (let page = 0; page < 20; page++) {
    const answer = await gateway.send("forwards", after === null ? {} : { after });
    const agents = (
      answer.body.data as
        | { agents?: { pageInfo: { hasNextPage: boolean; endCursor: string } } }
        | undefined
    )?.agents;
    pages.push({ status: answer.status, ids: agents ?? answer.body.errors });
    if (!agents?.pageInfo.hasNextPage) break;
    after = agents.pageInfo.endCursor;
  }
  let before: string | null = null;
  for (let page = 0; page < 20; page++) {
    const answer = await gateway.send("backwards", before === null ? {} : { before });
    const agents = (
      answer.body.data as
        | { agents?: { pageInfo: { hasPreviousPage: boolean; startCursor: string } } }
        | undefined
    )?.agents;
    pages.push({ status: answer.status, ids: agents ?? answer.body.errors });
    if (!agents?.pageInfo.hasPreviousPage) break;
    before = agents.pageInfo.startCursor;
  }
  // Cursors are opaque and per gateway: the pages' items and flags are what must agree.
  return JSON.parse(
    JSON.stringify(pages).replace(/"(endCursor|startCursor)":"[^"]*"/g, '"$1":"<cursor>"'),
  );
}

/** Requests no client should send: each must be refused with a catalogue error. */
async function malformed(gateway: MatrixGateway) {
  const sent: Array<[string, RequestInit]> = [
    ["/no-such-path", { method: "GET" }],
    [
      "/graphql",
      { method: "POST", body: "<query/>", headers: { "content-type": "application/xml" } },
    ],
    ["/graphql", { method: "POST", body: "{}", headers: { "content-type": "application/json" } }],
  ];
  return Promise.all(
    sent.map(async ([path, init]) => {
      const response = await fetch(`${gateway.url}${path}`, {
        ...init,
        headers: { accept: "application/json", ...gateway.headers(), ...init.headers },
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: kept as text, which the reference's check refuses.
      }
      return { request: `${init.method} ${path}`, status: response.status, body };
    }),
  );
}

const allowed = (run: Run, item: string) =>
  ALLOWED_DIFFERENCES.some(
    (row) =>
      Object.entries(run).some(([name, value]) => row.setting === `${name}=${value}`) &&
      (row.item === item || row.item === "*"),
  );

/** The reference itself must be right before others are compared with it. */
export function checkReference(reference: Answers) {
  expect(reference.node).toMatchObject({
    status: 200,
    body: { data: { node: { id: AGENT, name: ORIGINAL_NAME } } },
  });
  expect(reference["upstream NOT_FOUND"]).toMatchObject({
    body: { errors: [{ extensions: { code: "NOT_FOUND" } }] },
  });
  expect(reference["gateway BAD_USER_INPUT"]).toMatchObject({
    body: { errors: [{ extensions: { code: "BAD_USER_INPUT" } }] },
  });
  expect(reference.mutation).toMatchObject([
    { status: 200 },
    { body: { data: { node: { name: "Matrix reception" } } } },
    { status: 200 },
  ]);
  const apq = reference.APQ as Array<{ body: Record<string, unknown> }>;
  expect(apq.map(({ body }) => codeOf(body) ?? body.data)).toEqual([
    "PERSISTED_QUERY_NOT_FOUND",
    { organization: { name: expect.any(String) } },
    { organization: { name: expect.any(String) } },
    { organization: { name: expect.any(String) } },
  ]);
  expect(reference["live query"]).toMatchObject([
    { data: { agent: { id: AGENT, name: ORIGINAL_NAME } } },
    { data: { agent: { id: AGENT, name: "Matrix live" } } },
  ]);
  expect(reference.subscription).toMatchObject({
    data: { conversationStatus: { ended: false, conversation: { id: LIVE_CONVERSATION } } },
  });
  // Both transports give one subscription its one first event.
  expect(reference["subscription over graphql-ws"]).toEqual(reference.subscription);
  for (const refusal of reference["malformed requests"] as Array<{
    status: number;
    body: Answers;
  }>) {
    expect(refusal.status).toBeGreaterThanOrEqual(400);
    expect(refusal.body).toMatchObject({
      errors: [{ extensions: { code: expect.any(String), requestId: "<requestId>" } }],
    });
  }
  expect(reference["MCP tools/list"]).toContain("MatrixAgent");
  expect(reference["MCP tools/call"]).toEqual(
    (reference.agent as { body: { data: unknown } }).body.data,
  );
}

/** A run's answers against the reference's: equal, or different only as the table allows. */
export function compareWithReference(run: Run, answers: Answers, reference: Answers) {
  const differing: Array<{ item: string; answer: unknown; reference: unknown }> = [];
  for (const [item, answer] of Object.entries(answers)) {
    // Where MCP is on, a tool's answer is the GraphQL answer of the same operation.
    if (item === "MCP tools/call" && run.mcp === "on") {
      expect(answer).toEqual((answers.agent as { body: { data: unknown } }).body.data);
    }
    if (allowed(run, item)) {
      checkAllowed(run, item, answer, reference[item]);
      continue;
    }
    // Items the reference cannot run (`_entities`, logout) are checked for what they answer.
    if (item === "_entities") {
      expect(answer).toMatchObject({
        status: 200,
        body: { data: { _entities: [{ id: AGENT, name: ORIGINAL_NAME }] } },
      });
      continue;
    }
    if (!isDeepStrictEqual(answer, reference[item]))
      differing.push({ item, answer, reference: reference[item] });
  }
  // Every differing item at once: one run's report names all it broke.
  expect(differing).toEqual([]);
}

/** An allowed difference is still the one the table names, and nothing else. */
function checkAllowed(run: Run, item: string, answer: unknown, reference: unknown) {
  if (item === "logout") {
    // A logout ends the session, whichever way its token rides.
    expect(answer).toEqual([204, 401]);
  } else if (item === "APQ" && run.documents === "trusted") {
    const codes = (answer as Array<{ body: Record<string, unknown> }>).map(({ body }) =>
      codeOf(body),
    );
    expect(codes).toEqual([
      "PERSISTED_QUERY_NOT_FOUND",
      "PERSISTED_QUERY_ONLY",
      "PERSISTED_QUERY_ONLY",
      "PERSISTED_QUERY_NOT_FOUND",
    ]);
  } else if (item === "live query" && run.federation === "on") {
    expect(answer).toMatchObject([
      {
        errors: [
          {
            message: 'Unknown directive "@live".',
            extensions: { code: "GRAPHQL_VALIDATION_FAILED" },
          },
        ],
      },
    ]);
  } else if (item.startsWith("MCP") && run.mcp === "off") {
    expect(answer).toMatchObject({
      status: 404,
      body: { errors: [{ extensions: { code: "NOT_FOUND", requestId: "<requestId>" } }] },
    });
  } else if (item === "MCP tools/list") {
    // The reference's tools, and exactly the ones each setting adds.
    const added = (answer as string[]).filter((name) => !(reference as string[]).includes(name));
    const removed = (reference as string[]).filter((name) => !(answer as string[]).includes(name));
    // A document that does not validate against the subgraph's schema is no tool.
    expect(removed).toEqual(run.federation === "on" ? ["MatrixLive"] : []);
    const schemaTools = ["execute", "introspect", "search", "validate"];
    expect(added.filter((name) => schemaTools.includes(name))).toEqual(
      run.mcpSchemaTools === "on" ? schemaTools : [],
    );
    const mutations = added.filter((name) => !schemaTools.includes(name));
    if (run.mcpMutations === "on") expect(mutations).toContain("MatrixRename");
    else expect(mutations).toEqual([]);
  } else {
    expect.fail(`no check of ${item}'s allowed difference under ${JSON.stringify(run)}`);
  }
}
