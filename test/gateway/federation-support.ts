import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { composeServices as composeWithApollo } from "@apollo/composition";
import { buildSubgraphSchema } from "@apollo/subgraph";
import { createGatewayRuntime } from "@graphql-hive/gateway-runtime";
import httpTransport from "@graphql-mesh/transport-http";
import { composeServices as composeWithGuild } from "@theguild/federation-composition";
import { type DocumentNode, Kind, parse, print } from "graphql";
import { createYoga } from "graphql-yoga";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";

/**
 * A company's own subgraph, as a team that runs a supergraph would write it: its employees own
 * the platform's agents, its support tickets name the platform's conversations. It knows
 * nothing of organizations or keys: whatever voicegraph answers for an ID is the caller's.
 */
export const COMPANY_SDL = /* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.6", import: ["@key"])

  type Query {
    employee(id: ID!): Employee
    tickets: [Ticket!]!
  }

  type Employee @key(fields: "id") {
    id: ID!
    name: String!
    agents: [Agent]!
  }

  type Ticket @key(fields: "id") {
    id: ID!
    subject: String!
    conversation: Conversation
  }

  type Agent @key(fields: "id") {
    id: ID!
    owner: Employee
  }

  type Conversation @key(fields: "id") {
    id: ID!
    ticket: Ticket
  }
`;

/** Ada looks after two of Acme's agents, Grace after Globex's. */
export const EMPLOYEES = {
  emp_ada: {
    id: "emp_ada",
    name: "Ada",
    agentIds: [SEED_IDS.acmeAgent, SEED_IDS.acmeAgentPaused],
  },
  emp_grace: { id: "emp_grace", name: "Grace", agentIds: [SEED_IDS.globexAgent] },
} as const;

export const TICKETS = [
  { id: "tkt_1", subject: "Caller asked for a refund", conversationId: SEED_IDS.acmeConversation },
  {
    id: "tkt_2",
    subject: "Dropped call on the launch line",
    conversationId: SEED_IDS.globexConversation,
  },
] as const;

type Employee = (typeof EMPLOYEES)[keyof typeof EMPLOYEES];
type Ticket = (typeof TICKETS)[number];

const employeeById = (id: string): Employee | null =>
  (EMPLOYEES as Record<string, Employee>)[id] ?? null;

const companyResolvers = {
  Query: {
    employee: (_root: unknown, { id }: { id: string }) => employeeById(id),
    tickets: () => TICKETS,
  },
  Employee: {
    __resolveReference: ({ id }: { id: string }) => employeeById(id),
    agents: (employee: Employee) => employee.agentIds.map((id) => ({ id })),
  },
  Ticket: {
    __resolveReference: ({ id }: { id: string }) => TICKETS.find((t) => t.id === id) ?? null,
    conversation: (ticket: Ticket) => ({ id: ticket.conversationId }),
  },
  Agent: {
    owner: ({ id }: { id: string }) =>
      Object.values(EMPLOYEES).find((employee) =>
        (employee.agentIds as readonly string[]).includes(id),
      ) ?? null,
  },
  Conversation: {
    ticket: ({ id }: { id: string }) => TICKETS.find((t) => t.conversationId === id) ?? null,
  },
};

export interface Listening {
  url: string;
  close(): Promise<void>;
}

/** A fetch handler (yoga, Hive Gateway) listening on a free loopback port. */
async function listenOnLoopback(
  handler: Parameters<typeof createServer>[1],
  onClose: () => Promise<void> | void = () => {},
): Promise<Listening & { server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}/graphql`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await onClose();
    },
  };
}

/** The company's subgraph on loopback; it records the headers of every request it serves. */
export async function startCompanySubgraph(): Promise<
  Listening & { takeHeaders(): IncomingHttpHeaders[] }
> {
  const headers: IncomingHttpHeaders[] = [];
  const yoga = createYoga({
    schema: buildSubgraphSchema({ typeDefs: parse(COMPANY_SDL), resolvers: companyResolvers }),
    logging: false,
    maskedErrors: false,
  });
  const listening = await listenOnLoopback((req, res) => {
    headers.push(req.headers);
    void yoga(req, res);
  });
  return {
    ...listening,
    takeHeaders: () => headers.splice(0),
  };
}

export interface Subgraph {
  name: string;
  url: string;
  typeDefs: DocumentNode;
}

export function subgraphsOf(voicegraphSdl: string, urls: { voicegraph: string; company: string }) {
  return [
    { name: "voicegraph", url: urls.voicegraph, typeDefs: parse(voicegraphSdl) },
    { name: "company", url: urls.company, typeDefs: parse(COMPANY_SDL) },
  ] satisfies Subgraph[];
}

/** The supergraph each maintained composer makes of the subgraphs, with what it said. */
export const COMPOSERS = {
  "@apollo/composition": (subgraphs: Subgraph[]) => {
    const result = composeWithApollo(subgraphs);
    return {
      errors: (result.errors ?? []).map((error) => error.message),
      hints: (result.hints ?? []).map((hint) => `${hint.definition.code}: ${hint.message}`),
      supergraphSdl: result.supergraphSdl,
    };
  },
  "@theguild/federation-composition": (subgraphs: Subgraph[]) => {
    const result = composeWithGuild(subgraphs);
    // This composer reports no hints: what Apollo's would hint at, it accepts or refuses.
    return {
      errors: (result.errors ?? []).map((error) => error.message),
      hints: [] as string[],
      supergraphSdl: result.supergraphSdl,
    };
  },
} as const;

export type ComposerName = keyof typeof COMPOSERS;

/** Each entity of a supergraph with its keys, as `GRAPH: fields`, whatever order it printed. */
export function entityKeysOf(supergraphSdl: string): Record<string, string[]> {
  const keys: Record<string, string[]> = {};
  for (const definition of parse(supergraphSdl).definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION) continue;
    const joins = (definition.directives ?? []).filter(
      (directive) => directive.name.value === "join__type",
    );
    const keyed = joins.flatMap((join) => {
      const arg = (name: string) => join.arguments?.find((a) => a.name.value === name)?.value;
      const key = arg("key");
      const graph = arg("graph");
      return key && graph ? [`${print(graph)}: ${JSON.parse(print(key))}`] : [];
    });
    if (keyed.length > 0) keys[definition.name.value] = keyed.toSorted();
  }
  return keys;
}

/**
 * Hive Gateway serving a supergraph on loopback, as docs/federation.md configures it: each
 * caller's `Authorization` goes to voicegraph, and to no other subgraph (it is a platform key).
 */
export async function startRouter(supergraph: string): Promise<Listening> {
  const router = createGatewayRuntime({
    supergraph,
    // Hive Gateway loads its transports by name at the first request; given, nothing is guessed.
    transports: { http: httpTransport },
    logging: false,
    propagateHeaders: {
      fromClientToSubgraphs: ({ request, subgraphName }) =>
        subgraphName === "voicegraph"
          ? { authorization: request.headers.get("authorization") }
          : {},
    },
  });
  return listenOnLoopback(router, () => router.dispose());
}

/** POSTs an operation to a GraphQL endpoint with the given Authorization (null: none). */
export async function post(
  url: string,
  query: string,
  options: { authorization: string | null; variables?: Record<string, unknown> },
): Promise<{ status: number; body: GraphQLBody }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/graphql-response+json, application/json",
      ...(options.authorization === null ? {} : { authorization: options.authorization }),
    },
    body: JSON.stringify({ query, variables: options.variables ?? {} }),
  });
  return { status: response.status, body: (await response.json()) as GraphQLBody };
}

export interface GraphQLBody {
  data?: Record<string, unknown> | null;
  errors?: ReadonlyArray<{
    message: string;
    path?: ReadonlyArray<string | number>;
    extensions?: Record<string, unknown>;
  }>;
  extensions?: Record<string, unknown>;
}
