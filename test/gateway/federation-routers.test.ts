import { ApolloGateway, RemoteGraphQLDataSource } from "@apollo/gateway";
import { getOperationAST, parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { printedSubgraph } from "../../src/schema/print.ts";
import { subgraphSchema } from "../../src/schema/subgraph.ts";
import {
  COMPOSERS,
  type Listening,
  post,
  startCompanySubgraph,
  startRouter,
  subgraphsOf,
} from "./federation-support.ts";
import { ACME, type Harness, startHarness } from "./harness.ts";

// The gateway's own refusals reach a router's client with their code and message. A router asks
// a subgraph in plain application/json, so a request error comes back 200 with its error
// (GraphQL over HTTP): Apollo Gateway turns any non-2xx reply into INTERNAL_SERVER_ERROR.

const REFUSALS = [
  ["first: 500", "{ agents(first: 500) { totalCount } }", "BAD_USER_INPUT"],
  [
    "an estimate over MAX_UPSTREAM_CALLS",
    '{ organization { name } agent(id: "agt_acme_reception") { name } document(id: "doc_acme_faq") { name } }',
    "COST_LIMIT_EXCEEDED",
  ],
] as const;

type Executed = {
  data?: unknown;
  errors?: ReadonlyArray<{ message: string; extensions?: Record<string, unknown> }>;
};

let harness: Harness;
let company: Listening;
let hive: Listening;
let apollo: ApolloGateway;
let apolloRun: (query: string, authorization: string | null) => Promise<Executed>;

beforeAll(async () => {
  harness = await startHarness({ gateway: { schema: subgraphSchema, maxUpstreamCalls: 2 } });
  company = await startCompanySubgraph();
  const subgraphs = subgraphsOf(printedSubgraph(), {
    voicegraph: `${harness.url}/graphql`,
    company: company.url,
  });
  const { supergraphSdl } = COMPOSERS["@apollo/composition"](subgraphs);
  if (supergraphSdl === undefined) throw new Error("no supergraph");
  hive = await startRouter(supergraphSdl);
  apollo = new ApolloGateway({
    supergraphSdl,
    buildService: ({ url }) =>
      new RemoteGraphQLDataSource<{ authorization: string | null }>({
        url,
        willSendRequest({ request, context }) {
          if (context.authorization)
            request.http?.headers.set("authorization", context.authorization);
        },
      }),
  });
  const { schema, executor } = await apollo.load();
  apolloRun = async (query, authorization) => {
    const document = parse(query);
    const operation = getOperationAST(document);
    if (!operation) throw new Error("no operation");
    const result = await executor({
      request: { query, variables: {} },
      document,
      source: query,
      operation,
      operationName: null,
      schema,
      schemaHash: "test" as never,
      context: { authorization },
      queryHash: query,
      cache: new Map() as never,
      logger: console,
      metrics: {},
      overallCachePolicy: {},
    });
    return result as Executed;
  };
});
afterAll(async () => {
  await apollo?.stop();
  await hive?.close();
  await company?.close();
  await harness?.close();
});

describe("the gateway's refusals behind routers", () => {
  it.each(REFUSALS)(
    "Apollo Gateway's client sees %s with its code and message",
    async (_name, query, code) => {
      const direct = await post(`${harness.url}/graphql`, query, { authorization: ACME });
      const through = await apolloRun(query, ACME);
      expect(through.errors?.map((error) => error.extensions?.code)).toContain(code);
      expect(through.errors?.map((error) => error.message)).toContain(
        direct.body.errors?.[0]?.message,
      );
    },
  );

  it.each(REFUSALS)(
    "Hive Gateway's client sees %s with its code and message",
    async (_name, query, code) => {
      const direct = await post(`${harness.url}/graphql`, query, { authorization: ACME });
      const through = await post(hive.url, query, { authorization: ACME });
      expect(through.body.errors?.map((error) => error.extensions?.code)).toContain(code);
      expect(through.body.errors?.map((error) => error.message)).toContain(
        direct.body.errors?.[0]?.message,
      );
    },
  );

  it("Apollo Gateway's client sees UNAUTHENTICATED without a key", async () => {
    const through = await apolloRun("{ organization { name } }", null);
    expect(through.errors?.map((error) => error.extensions?.code)).toContain("UNAUTHENTICATED");
  });
});
