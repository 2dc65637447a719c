import { describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import {
  AgentConversationsTwoWaysDocument,
  AgentNameDocument,
  ConversationContactIdsDocument,
  ConversationContactStatsDocument,
  ConversationPageAgentsDocument,
  OneAgentThreeWaysDocument,
  OrganizationTwiceDocument,
  ToolCatalogTwiceDocument,
} from "../generated/graphql.ts";
import { sorted } from "./dataloader-support.ts";
import { harness, NO_NEW_CALLS, oneHarnessPerFile } from "./file-harness.ts";
import { ACME, GLOBEX } from "./harness.ts";

/** Conversations 0001..0030 of Acme: started in this window, by 3 agents, none live. */
const THIRTY_CONVERSATIONS = {
  startDate: "2026-01-06T09:00:00Z",
  endDate: "2026-01-12T12:00:00Z",
};
const THIRTY_CONVERSATIONS_LIST =
  "GET /v1/conversations?limit=31&offset=0" +
  "&startDate=2026-01-06T09%3A00%3A00.000Z&endDate=2026-01-12T12%3A00%3A00.000Z";

/** The three agents that take Acme's calls, as the seed writes them. */
const CALL_AGENTS = {
  [SEED_IDS.acmeAgent]: { id: SEED_IDS.acmeAgent, name: "Reception", status: "ACTIVE" },
  [SEED_IDS.acmeAgentPaused]: { id: SEED_IDS.acmeAgentPaused, name: "Scheduler", status: "PAUSED" },
  [SEED_IDS.acmeAgentInactive]: {
    id: SEED_IDS.acmeAgentInactive,
    name: "Billing",
    status: "INACTIVE",
  },
} as const;

/** Agent of conversations 0030 down to 0001 (newest first): R reception, S scheduler, B billing. */
const AGENTS_OF_THIRTY = "BSSBBRSSRSRSSRSRRBRBSBBRBBRRRR";
const AGENT_BY_LETTER = {
  R: SEED_IDS.acmeAgent,
  S: SEED_IDS.acmeAgentPaused,
  B: SEED_IDS.acmeAgentInactive,
} as const;

/** Contact of conversations 0030 down to 0001: 12 distinct contacts. */
const CONTACTS_OF_THIRTY = [
  "aiko",
  "noah",
  "aiko",
  "omar",
  "fatima",
  "james",
  "noah",
  "aiko",
  "noah",
  "ingrid",
  "priya",
  "ingrid",
  "james",
  "omar",
  "wei",
  "liam",
  "omar",
  "priya",
  "ingrid",
  "lucas",
  "wei",
  "chloe",
  "omar",
  "james",
  "ingrid",
  "priya",
  "aiko",
  "noah",
  "james",
  "maria",
].map((name) => `cnt_acme_${name}`);

const THIRTY_IDS = Array.from(
  { length: 30 },
  (_, index) => `cnv_acme_${String(30 - index).padStart(4, "0")}`,
);

describe("per-request DataLoaders over the sandbox", () => {
  oneHarnessPerFile(NO_NEW_CALLS);

  it("loads a 30-conversation page sharing 3 agents with 1 list call and 3 agent calls", async () => {
    const response = await harness.graphql(ConversationPageAgentsDocument, {
      first: 30,
      filter: THIRTY_CONVERSATIONS,
    });

    expect(response.body.errors).toBeUndefined();
    const page = response.body.data?.conversations;
    expect(page?.totalCount).toBe(30);
    expect(page?.nodes.map((node) => node.id)).toEqual(THIRTY_IDS);
    expect(page?.nodes.map((node) => node.agent)).toEqual(
      [...AGENTS_OF_THIRTY].map(
        (letter) => CALL_AGENTS[AGENT_BY_LETTER[letter as keyof typeof AGENT_BY_LETTER]],
      ),
    );
    const requests = harness.takeUpstreamRequests();
    expect(requests[0]).toBe(THIRTY_CONVERSATIONS_LIST);
    expect(sorted(requests.slice(1))).toEqual([
      "GET /v1/agents/agt_acme_billing",
      "GET /v1/agents/agt_acme_reception",
      "GET /v1/agents/agt_acme_scheduler",
    ]);
  });

  it("fetches an agent once when it is asked for twice under aliases and through its conversations", async () => {
    const response = await harness.graphql(OneAgentThreeWaysDocument, {
      agentId: SEED_IDS.acmeAgentInactive,
    });

    expect(response.body).toMatchObject({
      data: {
        byId: { id: SEED_IDS.acmeAgentInactive, name: "Billing" },
        again: { status: "INACTIVE" },
        conversations: {
          nodes: ["0109", "0061", "0055", "0049", "0013"].map((n) => ({
            id: `cnv_acme_${n}`,
            agent: { id: SEED_IDS.acmeAgentInactive, name: "Billing" },
          })),
        },
      },
    });
    expect(response.body.errors).toBeUndefined();
    expect(sorted(harness.takeUpstreamRequests())).toEqual([
      "GET /v1/agents/agt_acme_billing",
      "GET /v1/conversations?limit=6&offset=0&agentId=agt_acme_billing&status=SUCCESS",
    ]);
  });

  it("fetches the organization once when it is selected twice under aliases", async () => {
    const response = await harness.graphql(OrganizationTwiceDocument);

    expect(response.body.data).toEqual({
      first: { name: "Acme Health" },
      second: { city: "Boston" },
    });
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
  });

  it("fetches the tool catalog once when it is selected twice under aliases", async () => {
    const response = await harness.graphql(ToolCatalogTwiceDocument);

    expect(response.body.errors).toBeUndefined();
    expect(response.body.data?.first).toHaveLength(8);
    expect(response.body.data?.first?.[0]).toEqual({ id: SEED_IDS.tool });
    expect(response.body.data?.second?.[0]).toEqual({ name: "Calendar booking" });
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/tools/catalog"]);
  });

  it("fetches a conversation page once when an agent's conversations and the filtered list ask for it", async () => {
    const response = await harness.graphql(AgentConversationsTwoWaysDocument, {
      agentId: SEED_IDS.acmeAgentInactive,
    });

    const page = { nodes: ["0075", "0027", "0009"].map((n) => ({ id: `cnv_acme_${n}` })) };
    expect(response.body.data).toEqual({ agent: { conversations: page }, conversations: page });
    expect(sorted(harness.takeUpstreamRequests())).toEqual([
      "GET /v1/agents/agt_acme_billing",
      "GET /v1/conversations?limit=4&offset=0&agentId=agt_acme_billing&status=FAILED",
    ]);
  });

  it("caches nothing across requests: the same query twice makes its GETs twice", async () => {
    for (let round = 0; round < 2; round++) {
      const response = await harness.graphql(ConversationPageAgentsDocument, {
        first: 3,
        filter: { status: "FAILED", direction: "INBOUND" },
      });
      expect(response.body.data?.conversations?.nodes.map((node) => node.id)).toEqual([
        "cnv_acme_0111",
        "cnv_acme_0099",
        "cnv_acme_0087",
      ]);
      const requests = harness.takeUpstreamRequests();
      expect(requests[0]).toBe(
        "GET /v1/conversations?limit=4&offset=0&status=FAILED&direction=INBOUND",
      );
      expect(sorted(requests.slice(1))).toEqual([
        "GET /v1/agents/agt_acme_reception",
        "GET /v1/agents/agt_acme_scheduler",
      ]);
    }
  });

  it("caches nothing across API keys: each key's lookup goes upstream with that key", async () => {
    const variables = { id: SEED_IDS.acmeAgent };
    const acme = await harness.graphql(AgentNameDocument, variables, { authorization: ACME });
    const globex = await harness.graphql(AgentNameDocument, variables, { authorization: GLOBEX });
    const acmeAgain = await harness.graphql(AgentNameDocument, variables, { authorization: ACME });

    expect(acme.body).toMatchObject({
      data: { agent: { id: SEED_IDS.acmeAgent, name: "Reception" } },
    });
    expect(globex.body.data).toEqual({ agent: null });
    expect(globex.body.errors?.map((error) => [error.path, error.extensions?.code])).toEqual([
      [["agent"], "NOT_FOUND"],
    ]);
    expect(acmeAgain.body.data).toEqual(acme.body.data);
    expect(
      harness.sandbox.requests.map((request) => [request.url, request.headers.authorization]),
    ).toEqual([
      ["/v1/agents/agt_acme_reception", ACME],
      ["/v1/agents/agt_acme_reception", GLOBEX],
      ["/v1/agents/agt_acme_reception", ACME],
    ]);
  });

  it("answers conversation.contact { id } without any call for the contact", async () => {
    const response = await harness.graphql(ConversationContactIdsDocument, {
      first: 30,
      filter: THIRTY_CONVERSATIONS,
    });

    expect(response.body.data?.conversations?.nodes).toEqual(
      THIRTY_IDS.map((id, index) => ({ id, contact: { id: CONTACTS_OF_THIRTY[index] } })),
    );
    expect(harness.takeUpstreamRequests()).toEqual([THIRTY_CONVERSATIONS_LIST]);
  });

  it("loads contact { stats } with one call per distinct contact", async () => {
    const response = await harness.graphql(ConversationContactStatsDocument, {
      first: 30,
      filter: THIRTY_CONVERSATIONS,
    });

    expect(response.body.errors).toBeUndefined();
    const nodes = response.body.data?.conversations?.nodes ?? [];
    expect(nodes.map((node) => node.contact?.id)).toEqual(CONTACTS_OF_THIRTY);
    // Conversations of one contact share one answer.
    for (const node of nodes) {
      expect(node.contact?.stats).toMatchObject({ contactId: node.contact?.id });
      const first = nodes.find((other) => other.contact?.id === node.contact?.id);
      expect(node.contact?.stats).toEqual(first?.contact?.stats);
    }
    const distinct = [...new Set(CONTACTS_OF_THIRTY)];
    expect(distinct).toHaveLength(12);
    const requests = harness.takeUpstreamRequests();
    expect(requests[0]).toBe(THIRTY_CONVERSATIONS_LIST);
    expect(sorted(requests.slice(1))).toEqual(
      sorted(distinct.map((id) => `GET /v1/contacts/${id}/stats`)),
    );
  });
});

// A page starts its items' agent and stats loads as soon as it is read (src/schema/item-loads.ts):
// never a load its selection does not make, never one twice.
describe("a page's item loads, started with the page", () => {
  oneHarnessPerFile(NO_NEW_CALLS);
  const distinctContacts = [...new Set(CONTACTS_OF_THIRTY)];
  const statsCalls = distinctContacts.map((id) => `GET /v1/contacts/${id}/stats`);

  it("loads nothing a directive leaves out, nor stats a contact without them does not ask", async () => {
    for (const selection of [
      "contact { stats @skip(if: true) }",
      "contact @include(if: $no) { stats }",
      "... @include(if: $no) { agent { id } contact { stats } }",
      "contact { id }",
    ]) {
      const no = selection.includes("$no") ? ", $no: Boolean = false" : "";
      const query = `query($filter: ConversationFilter${no}) {
        conversations(first: 30, filter: $filter) { nodes { id ${selection} } }
      }`;
      const response = await harness.graphql(query, { filter: THIRTY_CONVERSATIONS });
      expect(response.body.errors, selection).toBeUndefined();
      expect(harness.takeUpstreamRequests(), selection).toEqual([THIRTY_CONVERSATIONS_LIST]);
    }
  });

  it("loads each agent and contact once through fragments, edges and a pinned list", async () => {
    const query = `query($filter: ConversationFilter) {
      agent(id: "${SEED_IDS.acmeAgent}") {
        conversations(first: 3) { edges { node { ...Item } } }
      }
      conversations(first: 30, filter: $filter) { nodes { ... on Conversation { ...Item } } }
    }
    fragment Item on Conversation { agent { name } contact { id stats } }`;
    const response = await harness.graphql(query, { filter: THIRTY_CONVERSATIONS });

    expect(response.body.errors).toBeUndefined();
    const nodes = (
      response.body.data as { conversations: { nodes: { contact: { id: string } }[] } }
    ).conversations.nodes;
    expect(nodes.map((node) => node.contact.id)).toEqual(CONTACTS_OF_THIRTY);
    const calls = harness.takeUpstreamRequests();
    const seconds = calls.filter((call) => !call.startsWith("GET /v1/conversations?"));
    // Each agent and each contact's stats once, whichever page asked first.
    expect(new Set(seconds).size).toBe(seconds.length);
    expect(seconds).toEqual(expect.arrayContaining(statsCalls));
    expect(seconds).toEqual(
      expect.arrayContaining([
        "GET /v1/agents/agt_acme_billing",
        "GET /v1/agents/agt_acme_reception",
        "GET /v1/agents/agt_acme_scheduler",
      ]),
    );
  });
});

describe("a contact whose stats fail", () => {
  oneHarnessPerFile(NO_NEW_CALLS);

  it("fails only its own items' stats, with one call for it", async () => {
    const failing = "cnt_acme_aiko";
    harness.sandbox.injectFault({ path: `/v1/contacts/${failing}/stats`, status: 404, times: 1 });
    const response = await harness.graphql(ConversationContactStatsDocument, {
      first: 30,
      filter: THIRTY_CONVERSATIONS,
    });

    const nodes = response.body.data?.conversations?.nodes ?? [];
    expect(nodes.map((node) => node.contact?.id)).toEqual(CONTACTS_OF_THIRTY);
    for (const [index, node] of nodes.entries()) {
      if (node.contact?.id === failing) expect(node.contact.stats, `${index}`).toBeNull();
      else expect(node.contact?.stats, `${index}`).toMatchObject({ contactId: node.contact?.id });
    }
    const failedPaths = (response.body.errors ?? []).map((error) => error.path?.join("."));
    expect(failedPaths).toEqual(
      CONTACTS_OF_THIRTY.flatMap((id, index) =>
        id === failing ? [`conversations.nodes.${index}.contact.stats`] : [],
      ),
    );
    const requests = harness.takeUpstreamRequests();
    expect(sorted(requests.slice(1))).toEqual(
      sorted([...new Set(CONTACTS_OF_THIRTY)].map((id) => `GET /v1/contacts/${id}/stats`)),
    );
  });
});
