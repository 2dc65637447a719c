import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { createGatewayLogger } from "../../src/gateway/observability/logger.ts";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { subgraphSchema } from "../../src/schema/subgraph.ts";
import { harness, NO_NEW_CALLS, oneHarnessPerFile } from "./file-harness.ts";

/** Every line the gateway's own logger writes: a bad representation must write none at error level. */
const lines: string[] = [];
const PINO_ERROR = 50;
const errorLines = () =>
  lines.filter((line) => (JSON.parse(line) as { level: number }).level >= PINO_ERROR);
oneHarnessPerFile({
  ...NO_NEW_CALLS,
  gateway: {
    schema: subgraphSchema,
    logging: createGatewayLogger("debug", { write: (line: string) => lines.push(line) }),
  },
});

const FIELDS = /* GraphQL */ `
  __typename
  ... on Agent { id name }
  ... on Campaign { id name }
  ... on Conversation { id startedAt }
  ... on Contact { id }
  ... on Document { id name }
  ... on PropertyDefinition { id }
`;
const ENTITIES = `query ($representations: [_Any!]!) {
  _entities(representations: $representations) { ${FIELDS} }
}`;
const NODES = `query ($ids: [ID!]!) { nodes(ids: $ids) { ${FIELDS} } }`;

/** Representations a router could send, one of which names an entity that does not exist. */
const GOOD = [
  { __typename: "Agent", id: SEED_IDS.acmeAgent },
  { __typename: "Agent", id: "agt_acme_missing" },
  { __typename: "Contact", id: SEED_IDS.acmeContact },
  { __typename: "Conversation", id: SEED_IDS.acmeConversation },
  { __typename: "Campaign", id: SEED_IDS.acmeCampaignRunning },
  { __typename: "Document", id: SEED_IDS.acmeDocument },
  { __typename: "PropertyDefinition", id: SEED_IDS.acmeProperty },
];

/** Representations no entity can be loaded for: each must fail its own entity alone. */
const BAD: unknown[] = [
  { __typename: "Nope", id: SEED_IDS.acmeAgent },
  { __typename: "Query", id: SEED_IDS.acmeAgent },
  { __typename: "PageInfo", id: SEED_IDS.acmeAgent },
  { __typename: "Organization", id: "org_acme" },
  { __typename: "Node", id: SEED_IDS.acmeAgent },
  { __typename: "Ticket", id: "tkt_1" },
  { __typename: "", id: SEED_IDS.acmeAgent },
  { __typename: 7, id: SEED_IDS.acmeAgent },
  { __typename: null, id: SEED_IDS.acmeAgent },
  { id: SEED_IDS.acmeAgent },
  { __typename: "Agent" },
  { __typename: "Agent", id: 42 },
  { __typename: "Agent", id: null },
  { __typename: "Agent", id: { id: SEED_IDS.acmeAgent } },
  { __typename: "Agent", id: SEED_IDS.acmeConversation },
  { __typename: "Agent", id: `agt_${"x".repeat(300)}` },
  42,
  "agt_acme_reception",
  true,
  [],
  [{ __typename: "Agent", id: SEED_IDS.acmeAgent }],
];

interface Expected {
  entity: unknown;
  code: string | undefined;
  calls: string[];
}

/** What `nodes(ids:)` answers, and calls, for each good representation's ID alone. */
const expectedByIndex: Expected[] = [];

beforeAll(async () => {
  for (const { id } of GOOD) {
    const { body } = await harness.graphql<{ nodes: unknown[] }>(NODES, { ids: [id] });
    expectedByIndex.push({
      entity: body.data?.nodes[0],
      code: body.errors?.[0]?.extensions?.code as string | undefined,
      calls: harness.takeUpstreamRequests(),
    });
  }
  expect(expectedByIndex.map((expected) => expected.code)).toEqual([
    undefined,
    "NOT_FOUND",
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
});

const batch = fc.array(
  fc.oneof(
    fc.nat({ max: GOOD.length - 1 }).map((good) => ({ good })),
    fc.nat({ max: BAD.length - 1 }).map((bad) => ({ bad })),
  ),
  { minLength: 1, maxLength: 12 },
);

describe("`_entities` with bad representations beside good ones", () => {
  it("fails each bad representation alone, BAD_USER_INPUT at its index, and answers the rest", async () => {
    await fc.assert(
      fc.asyncProperty(batch, async (items) => {
        const representations = items.map((item) =>
          "good" in item ? GOOD[item.good] : BAD[item.bad],
        );
        const { status, body } = await harness.graphql<{ _entities: unknown[] }>(ENTITIES, {
          representations,
        });
        const calls = harness.takeUpstreamRequests();

        expect(status).toBe(200);
        expect(body.data?._entities).toEqual(
          items.map((item) => ("good" in item ? expectedByIndex[item.good]?.entity : null)),
        );
        const expectedErrors = items.flatMap((item, index) => {
          const code = "good" in item ? expectedByIndex[item.good]?.code : "BAD_USER_INPUT";
          return code === undefined ? [] : [[["_entities", index], code]];
        });
        expect(body.errors?.map((error) => [error.path, error.extensions?.code]) ?? []).toEqual(
          expectedErrors,
        );
        for (const error of body.errors ?? []) {
          if (error.extensions?.code === "BAD_USER_INPUT") {
            expect(error.extensions.argument).toBe("representations");
          }
        }
        // Only the good representations are read, each resource once.
        const expectedCalls = new Set(
          items.flatMap((item) =>
            "good" in item ? (expectedByIndex[item.good]?.calls ?? []) : [],
          ),
        );
        expect(calls.toSorted()).toEqual([...expectedCalls].toSorted());
        expect(errorLines()).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});
