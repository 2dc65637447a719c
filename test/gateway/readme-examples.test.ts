import { readFileSync } from "node:fs";
import { isLiveQueryOperationDefinitionNode } from "@n1ru4l/graphql-live-query";
import {
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  parse,
  print,
  TypeInfo,
  validate,
  valueFromASTUntyped,
  visit,
  visitWithTypeInfo,
} from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EXAMPLE_OPERATION,
  exampleOperationFor,
} from "../../src/gateway/pages/example-operation.ts";
import { DEFAULT_OPTIONS } from "../../src/sandbox/options.ts";
import { seedStore } from "../../src/sandbox/seed.ts";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { schema as publicSchema } from "../../src/schema/index.ts";
import { subgraphSchema } from "../../src/schema/subgraph.ts";
import { ACME, type Harness, startHarness } from "./harness.ts";
import { followSse } from "./live-support.ts";
import { subscribeSse } from "./subscriptions-support.ts";

const LIVE = SEED_IDS.acmeLiveConversation;

/** Every operation of docs/examples.md and of the README's own examples, in order. */
function readmeOperations(): OperationDefinitionNode[] {
  const text = ["../../docs/examples.md", "../../README.md"]
    .map((file) => readFileSync(new URL(file, import.meta.url), "utf8"))
    .join("\n");
  const blocks = [...text.matchAll(/```graphql\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
  // The README shows a few of the examples again: each runs once, where docs/examples.md has it.
  const seen = new Set<string>();
  return blocks.flatMap((block) =>
    parse(block).definitions.filter(
      (definition): definition is OperationDefinitionNode =>
        definition.kind === "OperationDefinition" &&
        !seen.has(print(definition)) &&
        Boolean(seen.add(print(definition))),
    ),
  );
}

const operations = readmeOperations();
let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

describe("the example operations of docs/examples.md and the README", () => {
  it("are separate named operations, and the README's are among them", () => {
    expect(operations.every((operation) => operation.name !== undefined)).toBe(true);
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const shown = [...readme.matchAll(/```graphql\n([\s\S]*?)```/g)]
      .flatMap((match) => parse(match[1] ?? "").definitions)
      .filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
    expect(shown.length).toBeGreaterThan(0);
    const printed = new Set(operations.map((operation) => print(operation)));
    for (const definition of shown) expect(printed.has(print(definition))).toBe(true);
  });

  it.each([
    ["the public schema", publicSchema],
    ["the subgraph's (FEDERATION=on)", subgraphSchema],
  ])("open GraphiQL with operations valid against %s", (_name, served) => {
    expect(validate(served, parse(exampleOperationFor(served)))).toEqual([]);
  });

  it("include GraphiQL's opening operations: they validate, and Overview finds a live call", async () => {
    const schema = harness.gateway.getEnveloped().schema;
    expect(validate(schema, parse(EXAMPLE_OPERATION))).toEqual([]);
    const overview = await fetch(`${harness.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: ACME },
      body: JSON.stringify({ query: EXAMPLE_OPERATION, operationName: "Overview" }),
    });
    const body = (await overview.json()) as { data: { conversations: { nodes: unknown[] } } };
    expect(body.data.conversations.nodes.length).toBeGreaterThan(0);
  });

  it("select `id` on every object that has one, so client caches can key it", () => {
    const schema = harness.gateway.getEnveloped().schema;
    const missing: string[] = [];
    for (const operation of operations) {
      const typeInfo = new TypeInfo(schema);
      visit(
        operation,
        visitWithTypeInfo(typeInfo, {
          Field(field) {
            const type = getNamedType(typeInfo.getType());
            if (!field.selectionSet || !(isObjectType(type) || isInterfaceType(type))) return;
            if (!("id" in type.getFields())) return;
            const selectsId = field.selectionSet.selections.some(
              (selection) => selection.kind === Kind.FIELD && selection.name.value === "id",
            );
            if (!selectsId) missing.push(`${operation.name?.value}: ${field.name.value}`);
          },
        }),
      );
    }
    expect(missing).toEqual([]);
  });

  it("cover every root query and mutation field", () => {
    const rootFields = new Set(
      operations.flatMap((operation) =>
        operation.selectionSet.selections.flatMap((selection) =>
          selection.kind === "Field" ? [`${operation.operation}.${selection.name.value}`] : [],
        ),
      ),
    );
    const schema = harness.gateway.getEnveloped().schema;
    const expected = [
      ...Object.keys(schema.getQueryType()?.getFields() ?? {}).map((name) => `query.${name}`),
      ...Object.keys(schema.getMutationType()?.getFields() ?? {}).map((name) => `mutation.${name}`),
      ...Object.keys(schema.getSubscriptionType()?.getFields() ?? {}).map(
        (name) => `subscription.${name}`,
      ),
    ];
    expect([...rootFields].sort()).toEqual(expected.sort());
  });

  it("has an expected answer for every query and mutation example", () => {
    const runnable = operations.filter((operation) => operation.operation !== "subscription");
    expect(runnable).toHaveLength(EXPECTED.length);
  });

  it("give FollowCall's default ID a call live for the first 81 seconds after start-up", () => {
    const startMs = 1_000_000;
    const live = seedStore(startMs, DEFAULT_OPTIONS.callDurationMs)
      .get(SEED_IDS.acmeOrganization)
      ?.conversations.get(LIVE);
    expect(live?.status).toBe("IN_PROGRESS");
    expect(startMs - (live?.startedAtMs ?? 0)).toBe(9_000);
    expect((live?.endsAtMs ?? 0) - startMs).toBe(81_000);
  });

  it("name on the page what each example with a variable needs on a second run", () => {
    const page = readFileSync(new URL("../../docs/examples.md", import.meta.url), "utf8");
    const withVariables = operations
      .filter((operation) => (operation.variableDefinitions ?? []).length > 0)
      .map((operation) => operation.name?.value ?? "");
    expect(withVariables.filter((name) => !page.includes(`| \`${name}\` |`))).toEqual([]);
    for (const literal of ['"Night shift 2"', "`prp_acme_date_of_birth`"]) {
      expect(page).toContain(literal);
    }
  });

  // Each example runs twice in a row, as a reader who runs the page again would: the second run
  // passes the variables docs/examples.md names for it, found in this run's answers.
  for (const run of [1, 2] as const) {
    let queryIndex = 0;
    for (const operation of operations) {
      const name = operation.name?.value ?? "";
      const expected =
        operation.operation === "subscription" ? undefined : (EXPECTED[queryIndex++] ?? {});
      const text = print(operation);
      it(`run ${run}, ${name}: answers without errors${run === 1 ? ", the seed's data" : ""}`, async () => {
        const variables = run === 1 ? {} : secondRunVariables(name);
        if (operation.operation === "subscription") {
          const id = String(variables.id ?? defaultOf(operation, "id"));
          const subscription = await subscribeSse(harness, id, ACME, text);
          try {
            const [first] = await subscription.nexts(1);
            expect(first?.errors, `${name}, run ${run}`).toBeUndefined();
            expect(first?.data?.conversationStatus?.conversation?.id).toBe(id);
          } finally {
            subscription.disconnect();
          }
          return;
        }
        if (isLiveQueryOperationDefinitionNode(operation)) {
          // Live: its first result over a streaming transport, as GraphiQL would show it.
          const live = followSse(harness, text, variables);
          try {
            const [first] = await live.count(1);
            expect(first?.errors, `${name}, run ${run}`).toBeUndefined();
            if (run === 1) expect(first?.data, name).toMatchObject(expected ?? {});
          } finally {
            live.stop();
          }
        }
        const response = await harness.graphql(text, variables);
        expect(response.body.errors, `${name}, run ${run}`).toBeUndefined();
        if (isLiveQueryOperationDefinitionNode(operation)) {
          // Over plain JSON the same answer comes once, saying it is not kept current.
          expect(response.body.extensions?.live, name).toMatchObject({ live: false });
        }
        expect(response.status).toBe(200);
        if (run === 1) expect(response.body.data, name).toMatchObject(expected ?? {});
        answers.set(name, response.body.data);
      });
    }
  }
});

/** What each example answered last, by operation name: the second run finds its targets there. */
const answers = new Map<string, unknown>();

function defaultOf(operation: OperationDefinitionNode, variable: string): unknown {
  const definition = operation.variableDefinitions?.find(
    (candidate) => candidate.variable.name.value === variable,
  );
  return definition?.defaultValue ? valueFromASTUntyped(definition.defaultValue) : undefined;
}

interface CampaignNode {
  id: string;
  failedRows: number | null;
}

/** The variables docs/examples.md tells a reader to pass when running an example again. */
function secondRunVariables(name: string): Record<string, unknown> {
  const campaigns = () =>
    (answers.get("CompletedCampaigns") as { campaigns: { nodes: CampaignNode[] } }).campaigns.nodes;
  switch (name) {
    case "CreateNightShift":
      return { name: "Night shift 2" };
    case "DeleteProperty":
      // The API lists no property definitions: the page names the seed's others.
      return { id: "prp_acme_date_of_birth" };
    case "DeleteCampaign": {
      // The last one: RetryCampaign takes the first with failed rows.
      const target = campaigns().at(-1);
      if (!target) throw new Error("CompletedCampaigns answered no campaign");
      return { id: target.id };
    }
    case "RetryCampaign": {
      const deleted = (answers.get("DeleteCampaign") as { deleteCampaign: { deletedId: string } })
        .deleteCampaign.deletedId;
      const target = campaigns().find(
        (campaign) => (campaign.failedRows ?? 0) > 0 && campaign.id !== deleted,
      );
      if (!target) throw new Error("CompletedCampaigns answered no campaign with failed rows");
      return { id: target.id };
    }
    case "FollowCall": {
      const [call] = (answers.get("LiveCalls") as { conversations: { nodes: { id: string }[] } })
        .conversations.nodes;
      return { id: call?.id };
    }
    default:
      return {};
  }
}

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const CURSOR = expect.any(String);
const named = (...names: string[]) => names.map((name) => ({ name }));

/**
 * What each example answers from the seed data, in README order (the mutations run in that
 * order, so each sees the ones before it). Figures that are the same in every dialect only.
 */
const EXPECTED: Record<string, unknown>[] = [
  {
    organization: {
      name: "Acme Health",
      timezone: "America/New_York",
      email: "hello@acme-health.example",
      raw: { id: "org_acme", name: "Acme Health", city: "Boston" },
    },
  },
  {
    agent: {
      name: "Reception",
      status: "ACTIVE",
      primaryLanguage: "en-US",
      supportedLanguages: ["en-US", "es-ES"],
      voiceConfigs: [
        { label: "Ava (English)", language: "en-US", voiceId: "voice_ava", isDefault: true },
        { label: "Lucía (Spanish)", language: "es-ES", voiceId: "voice_lucia", isDefault: false },
      ],
      stats: { totalConversations: 44, activeConversations: 1 },
    },
  },
  {
    agents: {
      totalCount: 45,
      pageInfo: { hasNextPage: true, endCursor: CURSOR },
      nodes: [
        { id: "agt_acme_reception", name: "Reception", status: "ACTIVE" },
        { id: "agt_acme_scheduler", name: "Scheduler", status: "PAUSED" },
        { id: "agt_acme_billing", name: "Billing", status: "INACTIVE" },
        { id: "agt_acme_004", name: "Outreach Agent 004", status: "PAUSED" },
        { id: "agt_acme_005", name: "Outreach Agent 005", status: "INACTIVE" },
        { id: "agt_acme_006", name: "Outreach Agent 006", status: "ACTIVE" },
        { id: "agt_acme_007", name: "Outreach Agent 007", status: "PAUSED" },
        { id: "agt_acme_008", name: "Outreach Agent 008", status: "INACTIVE" },
        { id: "agt_acme_009", name: "Outreach Agent 009", status: "ACTIVE" },
        { id: "agt_acme_010", name: "Outreach Agent 010", status: "PAUSED" },
      ],
    },
  },
  {
    agents: {
      nodes: named(
        "Outreach Agent 041",
        "Outreach Agent 042",
        "Outreach Agent 043",
        "Outreach Agent 044",
        "Outreach Agent 045",
      ),
      pageInfo: { hasPreviousPage: true, startCursor: CURSOR },
    },
  },
  {
    conversations: {
      totalCount: 4,
      edges: [
        {
          cursor: CURSOR,
          node: {
            id: "cnv_acme_0109",
            startedAt: "2026-01-28T21:36:00.000Z",
            duration: 384,
            agent: { name: "Billing" },
            contact: { id: "cnt_acme_priya" },
          },
        },
        { node: { id: "cnv_acme_0073", agent: { name: "Reception" } } },
        { node: { id: "cnv_acme_0037" } },
        { node: { id: "cnv_acme_0001" } },
      ],
    },
  },
  {
    conversations: {
      nodes: [
        {
          id: expect.stringMatching(/^cnv_/),
          status: "IN_PROGRESS",
          duration: expect.any(Number),
          startedAt: ISO,
        },
      ],
    },
  },
  {
    conversations: {
      totalCount: expect.any(Number),
      nodes: expect.arrayContaining([
        expect.objectContaining({
          id: expect.stringMatching(/^cnv_/),
          status: "IN_PROGRESS",
          startedAt: ISO,
          agent: expect.objectContaining({ id: expect.stringMatching(/^agt_/) }),
        }),
      ]),
    },
  },
  {
    conversation: {
      id: "cnv_acme_0001",
      status: "SUCCESS",
      duration: expect.any(Number),
      startedAt: ISO,
      endedAt: ISO,
    },
  },
  {
    contact: {
      stats: { contactId: "cnt_acme_maria", totalConversations: 7, inbound: 4, outbound: 3 },
      conversations: {
        nodes: [
          { id: "cnv_acme_live_1", status: "IN_PROGRESS" },
          { id: "cnv_acme_0117", status: "FAILED" },
          { id: "cnv_acme_0093", status: "FAILED" },
          { id: "cnv_acme_0092", status: "PENDING" },
          { id: "cnv_acme_0077", status: "NO_ANSWER" },
        ],
      },
    },
  },
  {
    campaigns: {
      pageInfo: { hasNextPage: false, endCursor: CURSOR },
      nodes: [
        {
          id: "cmp_acme_flu_shots",
          name: "Flu shot reminders",
          failedRows: 12,
          agent: { name: "Scheduler" },
        },
        {
          id: "cmp_acme_survey",
          name: "Patient satisfaction survey",
          failedRows: 0,
          agent: { name: "Reception" },
        },
        { id: "cmp_acme_04", name: "Campaign 04", failedRows: 5 },
        { id: "cmp_acme_10" },
        { id: "cmp_acme_16" },
        {},
        {},
      ],
    },
  },
  {
    campaign: {
      name: "Flu shot reminders",
      status: "COMPLETED",
      totalRows: 200,
      failedRows: 12,
      raw: { id: "cmp_acme_flu_shots", agentId: "agt_acme_scheduler", completedRows: 188 },
    },
  },
  {
    toolCatalog: [
      { id: "tool_calendar_booking", name: "Calendar booking", category: "scheduling" },
      { id: "tool_call_transfer", name: "Call transfer", type: "FUNCTION" },
      { id: "tool_end_call", name: "End call", category: "telephony" },
      {},
      {},
      {},
      {},
      {},
    ],
  },
  {
    document: {
      name: "Patient FAQ.md",
      mimeType: "text/markdown",
      sizeBytes: 18432,
      status: "READY",
    },
  },
  { node: { __typename: "Campaign", name: "Flu shot reminders" } },
  {
    nodes: [
      { __typename: "Agent", id: "agt_acme_reception" },
      { __typename: "Contact", id: "cnt_acme_maria" },
      { __typename: "Document", id: "doc_acme_faq" },
    ],
  },
  { updateOrganization: { organization: { timezone: "Europe/Berlin" } } },
  { createAgent: { agent: { id: expect.stringMatching(/^agt_/), status: "ACTIVE" } } },
  { updateAgent: { agent: { greeting: "Hello!", status: "ACTIVE" } } },
  {
    assignPhoneNumber: {
      phoneNumberId: "phn_acme_04",
      agent: { name: "Reception" },
    },
  },
  { deletePropertyDefinition: { deletedId: "prp_acme_insurance_provider" } },
  { deleteCampaign: { deletedId: "cmp_acme_survey" } },
  { retryCampaign: { campaign: { status: "RUNNING", failedRows: 0 } } },
  {
    organization: { name: "Acme Health" },
    agents: {
      nodes: [
        { name: "Reception", stats: { agentId: "agt_acme_reception", totalConversations: 44 } },
        { name: "Scheduler", stats: { agentId: "agt_acme_scheduler", totalConversations: 45 } },
        { name: "Billing", stats: { agentId: "agt_acme_billing", totalConversations: 31 } },
        { name: "Outreach Agent 004", stats: { totalConversations: 0 } },
        { name: "Outreach Agent 005", stats: { totalConversations: 0 } },
      ],
    },
  },
];
