import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { SUBGRAPH_FILE } from "../../src/schema/print.ts";
import { subgraphSchema } from "../../src/schema/subgraph.ts";
import {
  COMPOSERS,
  type ComposerName,
  entityKeysOf,
  type GraphQLBody,
  type Listening,
  post,
  startCompanySubgraph,
  startRouter,
  subgraphsOf,
} from "./federation-support.ts";
import { harness, NO_NEW_CALLS, oneHarnessPerFile } from "./file-harness.ts";
import { ACME, GLOBEX } from "./harness.ts";

// A batch of 100 makes about 90 calls at once: past the per-key queue's default (8 in flight,
// 64 waiting) the rest would be refused RATE_LIMITED, through `nodes` as through `_entities`.
oneHarnessPerFile({
  ...NO_NEW_CALLS,
  gateway: { schema: subgraphSchema, bounds: { upstreamQueuePerKey: 256 } },
});

const COMPOSER_NAMES = Object.keys(COMPOSERS) as ComposerName[];

/** The list request that holds the seeded Acme conversation, which started at 09:00:00. */
const ACME_CONVERSATION_LIST =
  "GET /v1/conversations?limit=100&startDate=2026-01-06T09%3A00%3A00.000Z" +
  "&endDate=2026-01-06T09%3A00%3A00.999Z";

/** What a router reads of voicegraph to compose it: no key needed, no upstream call made. */
async function voicegraphSdl(): Promise<string> {
  const { body } = await harness.graphql<{ _service: { sdl: string } }>(
    "{ _service { sdl } }",
    {},
    {
      authorization: null,
    },
  );
  return body.data?._service.sdl ?? "";
}

/** The fields each test reads of every node type, the same through `_entities` and `nodes`. */
const NODE_FIELDS = /* GraphQL */ `
  __typename
  ... on Agent { id name agentStatus: status }
  ... on Campaign { id name campaignStatus: status }
  ... on Conversation { id conversationStatus: status startedAt }
  ... on Contact { id }
  ... on Document { id name }
  ... on PropertyDefinition { id }
`;

const ENTITIES = `query ($representations: [_Any!]!) {
  _entities(representations: $representations) { ${NODE_FIELDS} }
}`;
const NODES = `query ($ids: [ID!]!) { nodes(ids: $ids) { ${NODE_FIELDS} } }`;

const TYPENAME_BY_PREFIX: Record<string, string> = {
  agt: "Agent",
  cnt: "Contact",
  cnv: "Conversation",
  cmp: "Campaign",
  prp: "PropertyDefinition",
  doc: "Document",
};
const representationOf = (id: string) => ({
  __typename: TYPENAME_BY_PREFIX[id.slice(0, 3)],
  id,
});

/** Each error as where it is (its item's index) and what it is, the field's name left out. */
const errorsByItem = (body: GraphQLBody) =>
  (body.errors ?? []).map((error) => ({
    item: error.path?.[1],
    code: error.extensions?.code,
    message: error.message,
  }));

/** Acme's IDs of every node type: 100, with repeats and two that do not exist. */
async function hundredAcmeIds(): Promise<string[]> {
  const { body } = await harness.graphql<{
    agents: { nodes: { id: string }[] };
    campaigns: { nodes: { id: string }[] };
    conversations: { nodes: { id: string }[] };
  }>(
    `{ agents(first: 40) { nodes { id } } campaigns(first: 25) { nodes { id } }
       conversations(first: 20) { nodes { id } } }`,
  );
  harness.takeUpstreamRequests();
  const agents = body.data?.agents.nodes.map((node) => node.id) ?? [];
  const ids = [
    ...agents,
    ...(body.data?.campaigns.nodes.map((node) => node.id) ?? []),
    ...(body.data?.conversations.nodes.map((node) => node.id) ?? []),
    SEED_IDS.acmeContact,
    "cnt_acme_noah",
    SEED_IDS.acmeDocument,
    SEED_IDS.acmeProperty,
    "agt_acme_missing",
    "cnv_acme_missing",
    ...agents.slice(0, 9),
  ];
  expect(ids).toHaveLength(100);
  return ids;
}

describe("voicegraph as a Federation 2 subgraph (FEDERATION=on)", () => {
  it("answers `_service { sdl }` without a key: the committed schema/subgraph.graphql, no upstream call", async () => {
    const sdl = await voicegraphSdl();
    expect(`${sdl.trimEnd()}\n`).toBe(readFileSync(SUBGRAPH_FILE, "utf8"));
    expect(sdl).toContain('type Agent implements Node\n  @key(fields: "id")');
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it.each(COMPOSER_NAMES)(
    "is composed with a company's subgraph by %s, without errors or hints",
    async (composer) => {
      const subgraphs = subgraphsOf(await voicegraphSdl(), {
        voicegraph: `${harness.url}/graphql`,
        company: "http://127.0.0.1:9/graphql",
      });
      const result = COMPOSERS[composer](subgraphs);
      expect(result.errors).toEqual([]);
      expect(result.hints).toEqual([]);
      // Every node type is an entity of voicegraph; Agent and Conversation also of the company.
      expect(entityKeysOf(result.supergraphSdl ?? "")).toEqual({
        Agent: ["COMPANY: id", "VOICEGRAPH: id"],
        Campaign: ["VOICEGRAPH: id"],
        Contact: ["VOICEGRAPH: id"],
        Conversation: ["COMPANY: id", "VOICEGRAPH: id"],
        Document: ["VOICEGRAPH: id"],
        Employee: ["COMPANY: id"],
        PropertyDefinition: ["VOICEGRAPH: id"],
        Ticket: ["COMPANY: id"],
      });
    },
  );

  it("resolves 100 representations as `nodes(ids:)` resolves their IDs: the same calls, errors and cost", async () => {
    const ids = await hundredAcmeIds();
    const viaNodes = await harness.graphql(NODES, { ids });
    const nodesCalls = harness.takeUpstreamRequests();
    const viaEntities = await harness.graphql(ENTITIES, {
      representations: ids.map(representationOf),
    });
    const entitiesCalls = harness.takeUpstreamRequests();

    expect(viaEntities.status).toBe(viaNodes.status);
    expect((viaEntities.body.data as { _entities: unknown })._entities).toEqual(
      (viaNodes.body.data as { nodes: unknown }).nodes,
    );
    expect(errorsByItem(viaEntities.body)).toEqual(errorsByItem(viaNodes.body));
    expect(errorsByItem(viaEntities.body).map(({ item, code }) => ({ item, code }))).toEqual([
      { item: 89, code: "NOT_FOUND" },
      { item: 90, code: "NOT_FOUND" },
    ]);
    expect(viaEntities.body.extensions?.cost).toEqual(viaNodes.body.extensions?.cost);
    expect(entitiesCalls.toSorted()).toEqual(nodesCalls.toSorted());
    // One call per distinct resource: the nine repeated agents cost nothing more.
    expect(new Set(entitiesCalls).size).toBe(entitiesCalls.length);
    expect(entitiesCalls.filter((call) => call.startsWith("GET /v1/agents/"))).toHaveLength(41);
  });

  it("refuses, before any upstream call, a batch the cost limit refuses for `nodes`", async () => {
    const ids = [...(await hundredAcmeIds()), SEED_IDS.acmeAgent];
    const viaNodes = await harness.graphql(NODES, { ids });
    const viaEntities = await harness.graphql(ENTITIES, {
      representations: ids.map(representationOf),
    });
    expect(viaEntities.status).toBe(viaNodes.status);
    expect(viaEntities.body).toEqual(viaNodes.body);
    expect(viaEntities.body.errors?.[0]?.extensions?.code).toBe("COST_LIMIT_EXCEEDED");
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });

  it("fails only the entity whose representation does not fit its type", async () => {
    const { status, body } = await harness.graphql(ENTITIES, {
      representations: [
        { __typename: "Agent", id: SEED_IDS.acmeConversation },
        { __typename: "Agent", id: 42 },
        { __typename: "Agent", id: SEED_IDS.acmeAgent },
      ],
    });
    expect(body.data).toEqual({
      _entities: [
        null,
        null,
        { __typename: "Agent", id: SEED_IDS.acmeAgent, name: "Reception", agentStatus: "ACTIVE" },
      ],
    });
    // The operation ran: 200, whatever its entities' errors, as for any field error.
    expect(status).toBe(200);
    expect(body.errors?.map((error) => [error.path, error.extensions?.code])).toEqual([
      [["_entities", 0], "BAD_USER_INPUT"],
      [["_entities", 1], "BAD_USER_INPUT"],
    ]);
    expect(harness.takeUpstreamRequests()).toEqual([`GET /v1/agents/${SEED_IDS.acmeAgent}`]);
  });

  it("reads a variable inside a representation literal, on every run of the query", async () => {
    // The second run is compiled (COMPILED_EXECUTION_AFTER): graphql-jit must see the variable too.
    const query = `query ($id: ID!) {
      _entities(representations: [{ __typename: "Agent", id: $id }]) { ... on Agent { id name } }
    }`;
    const agent = SEED_IDS.acmeAgent;
    for (let run = 0; run < 3; run++) {
      const { body } = await harness.graphql(query, { id: agent });
      expect(body).toMatchObject({ data: { _entities: [{ id: agent, name: "Reception" }] } });
      expect(body.errors).toBeUndefined();
    }
  });

  it("answers `_entities` without a key UNAUTHENTICATED (401), as any read, with no upstream call", async () => {
    const { status, body } = await harness.graphql(
      ENTITIES,
      { representations: [representationOf(SEED_IDS.acmeAgent)] },
      { authorization: null },
    );
    expect(status).toBe(401);
    expect(body.data).toBeUndefined();
    expect(body.errors?.map((error) => error.extensions?.code)).toEqual(["UNAUTHENTICATED"]);
    expect(harness.takeUpstreamRequests()).toEqual([]);
  });
});

describe.each(COMPOSER_NAMES)("Hive Gateway serving the supergraph %s composed", (composer) => {
  let company: Awaited<ReturnType<typeof startCompanySubgraph>>;
  let router: Listening;

  beforeAll(async () => {
    company = await startCompanySubgraph();
    const subgraphs = subgraphsOf(await voicegraphSdl(), {
      voicegraph: `${harness.url}/graphql`,
      company: company.url,
    });
    const { supergraphSdl } = COMPOSERS[composer](subgraphs);
    if (supergraphSdl === undefined) throw new Error(`${composer} composed no supergraph`);
    router = await startRouter(supergraphSdl);
  });
  afterAll(async () => {
    await router?.close();
    await company?.close();
  });

  /** An operation through the router, with what voicegraph called upstream and with what key. */
  async function throughRouter(query: string, authorization: string | null) {
    harness.takeUpstreamRequests();
    company.takeHeaders();
    const { status, body } = await post(router.url, query, { authorization });
    const keys = new Set(harness.sandbox.requests.map((request) => request.headers.authorization));
    return {
      status,
      body,
      upstream: harness.takeUpstreamRequests(),
      upstreamKeys: [...keys],
      companyKeys: company.takeHeaders().map((headers) => headers.authorization),
    };
  }

  const AGENT_FIELDS = `id name status voiceConfigs { label language isDefault }
    conversations(first: 2) { nodes { id status } }`;

  it("reads an agent's voice configs and conversations from voicegraph, starting in the company's subgraph", async () => {
    const answer = await throughRouter(
      `{ employee(id: "emp_ada") { name agents { ${AGENT_FIELDS} } } }`,
      ACME,
    );
    // The same agents, read through voicegraph alone: what the router's answer must hold.
    harness.takeUpstreamRequests();
    const direct = await harness.graphql(
      `query ($ids: [ID!]!) { nodes(ids: $ids) { ... on Agent { ${AGENT_FIELDS} } } }`,
      { ids: [SEED_IDS.acmeAgent, SEED_IDS.acmeAgentPaused] },
    );
    const directCalls = harness.takeUpstreamRequests();

    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data).toEqual({
      employee: { name: "Ada", agents: (direct.body.data as { nodes: unknown[] }).nodes },
    });
    const agents = (answer.body.data as { employee: { agents: Array<Record<string, unknown>> } })
      .employee.agents;
    expect(agents.map((agent) => [agent.name, agent.voiceConfigs])).toEqual([
      [
        "Reception",
        [
          { label: "Ava (English)", language: "en-US", isDefault: true },
          { label: "Lucía (Spanish)", language: "es-ES", isDefault: false },
        ],
      ],
      ["Scheduler", [{ label: "Noah (English)", language: "en-US", isDefault: true }]],
    ]);
    // One upstream call per distinct resource: each agent once, each agent's list once.
    expect(answer.upstream.toSorted()).toEqual(directCalls.toSorted());
    expect(answer.upstream.filter((call) => call.startsWith("GET /v1/agents/")).toSorted()).toEqual(
      [`GET /v1/agents/${SEED_IDS.acmeAgent}`, `GET /v1/agents/${SEED_IDS.acmeAgentPaused}`],
    );
    expect(answer.upstream).toHaveLength(4);
    expect(answer.upstreamKeys).toEqual([ACME]);
  });

  it("reads the company's owner and ticket, starting in voicegraph, and back again", async () => {
    const answer = await throughRouter(
      `{
        agent(id: "${SEED_IDS.acmeAgent}") { name owner { name } }
        conversation(id: "${SEED_IDS.acmeConversation}") {
          status ticket { subject conversation { id agent { name owner { name } } } }
        }
      }`,
      ACME,
    );
    expect(answer.body).toEqual({
      data: {
        agent: { name: "Reception", owner: { name: "Ada" } },
        conversation: {
          status: "SUCCESS",
          ticket: {
            subject: "Caller asked for a refund",
            conversation: {
              id: SEED_IDS.acmeConversation,
              agent: { name: "Reception", owner: { name: "Ada" } },
            },
          },
        },
      },
    });
    // The plan calls voicegraph twice: the root fields, then the ticket's conversation. Each call
    // is an operation of its own, which reads each resource it names once.
    const once = [
      `GET /v1/agents/${SEED_IDS.acmeAgent}`,
      `GET /v1/conversations/${SEED_IDS.acmeConversation}/status`,
      ACME_CONVERSATION_LIST,
    ];
    expect(answer.upstream.toSorted()).toEqual([...once, ...once].toSorted());
    expect(answer.upstreamKeys).toEqual([ACME]);
    // The company's subgraph was called, and never given the platform key.
    expect(answer.companyKeys.length).toBeGreaterThan(0);
    expect(answer.companyKeys).toEqual(answer.companyKeys.map(() => undefined));
  });

  it("forwards each caller's own key: Globex never sees Acme's agents, nor Acme Globex's", async () => {
    const query = `{
      ada: employee(id: "emp_ada") { agents { id name } }
      grace: employee(id: "emp_grace") { agents { id name } }
      tickets { subject conversation { id status } }
    }`;
    const asGlobex = await throughRouter(query, GLOBEX);
    // The router holds each agent's ID from the company's subgraph; all voicegraph says is
    // NOT_FOUND, so the platform's fields of another organization's items stay null.
    expect(asGlobex.body.data).toEqual({
      ada: {
        agents: [
          { id: SEED_IDS.acmeAgent, name: null },
          { id: SEED_IDS.acmeAgentPaused, name: null },
        ],
      },
      grace: { agents: [{ id: SEED_IDS.globexAgent, name: "Support" }] },
      tickets: [
        {
          subject: "Caller asked for a refund",
          conversation: { id: SEED_IDS.acmeConversation, status: null },
        },
        {
          subject: "Dropped call on the launch line",
          conversation: { id: SEED_IDS.globexConversation, status: expect.any(String) },
        },
      ],
    });
    expect(asGlobex.upstreamKeys).toEqual([GLOBEX]);
    expect(codesOf(asGlobex.body)).toEqual(["NOT_FOUND", "NOT_FOUND", "NOT_FOUND"]);
    expect(JSON.stringify(asGlobex.body)).not.toMatch(/Reception|Scheduler/);

    const asAcme = await throughRouter(query, ACME);
    expect(asAcme.body.data).toMatchObject({
      ada: {
        agents: [
          { id: SEED_IDS.acmeAgent, name: "Reception" },
          { id: SEED_IDS.acmeAgentPaused, name: "Scheduler" },
        ],
      },
      grace: { agents: [{ id: SEED_IDS.globexAgent, name: null }] },
      tickets: [
        { conversation: { id: SEED_IDS.acmeConversation, status: "SUCCESS" } },
        { conversation: { id: SEED_IDS.globexConversation, status: null } },
      ],
    });
    expect(asAcme.upstreamKeys).toEqual([ACME]);
    expect(codesOf(asAcme.body)).toEqual(["NOT_FOUND", "NOT_FOUND"]);
    expect(JSON.stringify(asAcme.body)).not.toMatch(/"Support"/);
  });

  it("answers UNAUTHENTICATED without a key, as voicegraph does, with no upstream call", async () => {
    const answer = await throughRouter(`{ agent(id: "${SEED_IDS.acmeAgent}") { name } }`, null);
    expect(answer.body.data?.agent ?? null).toBeNull();
    expect(codesOf(answer.body)).toContain("UNAUTHENTICATED");
    expect(answer.upstream).toEqual([]);
  });
});

const codesOf = (body: GraphQLBody) => (body.errors ?? []).map((error) => error.extensions?.code);
