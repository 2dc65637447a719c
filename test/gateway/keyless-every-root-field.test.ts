import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isScalarType,
} from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../src/schema/index.ts";
import { KEYLESS_ROOT_FIELDS } from "../../src/schema/keyless-fields.ts";
import { subgraphSchema } from "../../src/schema/subgraph.ts";
import { ID_PREFIX } from "../../src/upstream/ids.ts";
import { type Harness, startHarness } from "./harness.ts";

// Keys are required by default: every root field of every root type, keyless, is refused before
// it runs, whatever its cost estimate says. Only introspection and the schema's own keyless list
// (KEYLESS_ROOT_FIELDS) answer without one. The documents are made from the schema itself, so a
// field added tomorrow is walked without anyone remembering this test.

/** A literal of `type` that passes the gateway's own input rules (an ID of the right prefix). */
function literalOf(type: GraphQLInputType, rule: unknown): string {
  if (isNonNullType(type)) return literalOf(type.ofType, rule);
  if (isListType(type)) return `[${literalOf(type.ofType, rule)}]`;
  if (isEnumType(type)) return type.getValues()[0]?.name ?? "";
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((field) => isNonNullType(field.type));
    const written = fields.map(
      (field) => `${field.name}: ${literalOf(field.type, field.extensions?.idRule)}`,
    );
    return `{ ${written.join(", ")} }`;
  }
  if (!isScalarType(type)) throw new Error(`no literal for ${String(type)}`);
  switch (type.name) {
    case "ID": {
      const prefix = ID_PREFIX[rule as keyof typeof ID_PREFIX] ?? ID_PREFIX.agent;
      return JSON.stringify(`${prefix}keyless_walk`);
    }
    case "Int":
    case "Float":
      return "1";
    case "Boolean":
      return "true";
    case "DateTime":
      return '"2026-01-06T09:00:00.000Z"';
    case "JSONObject":
      return "{}";
    default:
      return '"x"';
  }
}

/** One operation selecting `field` alone, with each required argument given. */
function operationFor(kind: string, field: GraphQLField<unknown, unknown>): string {
  const args = field.args
    .filter((arg: GraphQLArgument) => isNonNullType(arg.type))
    .map((arg) => `${arg.name}: ${literalOf(arg.type, arg.extensions?.idRule)}`);
  const call = args.length > 0 ? `${field.name}(${args.join(", ")})` : field.name;
  const selection = isLeafType(getNamedType(field.type)) ? "" : " { __typename }";
  return `${kind} { ${call}${selection} }`;
}

function rootFields(of: GraphQLSchema): { kind: string; name: string; query: string }[] {
  const roots = [
    ["query", of.getQueryType()],
    ["mutation", of.getMutationType()],
    ["subscription", of.getSubscriptionType()],
  ] as const;
  return roots.flatMap(([kind, type]) =>
    Object.values(type?.getFields() ?? {})
      .filter((field) => !Object.hasOwn(KEYLESS_ROOT_FIELDS, `${type?.name}.${field.name}`))
      .map((field) => ({
        kind,
        name: `${type?.name}.${field.name}`,
        query: operationFor(kind, field),
      })),
  );
}

async function refusedKeyless(harness: Harness, kind: string, query: string) {
  harness.takeUpstreamRequests();
  const response = await fetch(`${harness.url}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      // A subscription over HTTP answers as a stream: its first event carries the refusal.
      accept: kind === "subscription" ? "text/event-stream" : "application/json",
    },
    body: JSON.stringify({ query }),
  });
  const text = await response.text();
  const json = kind === "subscription" ? /^data: (.*)$/m.exec(text)?.[1] : text;
  const body = JSON.parse(json ?? "null") as { data?: unknown; errors?: { extensions: object }[] };
  return { status: response.status, body, upstream: harness.takeUpstreamRequests() };
}

describe.each([
  ["the public schema", schema],
  ["the subgraph schema (FEDERATION=on)", subgraphSchema],
])("keys required by default: %s", (_name, served) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ gateway: { schema: served } });
  });
  afterAll(() => harness?.close());

  const fields = rootFields(served);

  it("walks every root field of every root type", () => {
    expect(fields.map((field) => field.name)).toEqual(
      expect.arrayContaining([
        "Query.organization",
        "Mutation.retryCampaign",
        "Subscription.conversationStatus",
      ]),
    );
    expect(fields.length).toBeGreaterThanOrEqual(
      Object.keys(served.getQueryType()?.getFields() ?? {}).length,
    );
  });

  it.each(fields)(
    "refuses $name without a key, before any upstream call",
    async ({ kind, query }) => {
      const refused = await refusedKeyless(harness, kind, query);
      expect(refused.body.data ?? null).toBeNull();
      expect(refused.body.errors?.map((error) => error.extensions)).toEqual([
        expect.objectContaining({ code: "UNAUTHENTICATED" }),
      ]);
      if (kind !== "subscription") expect(refused.status).toBe(401);
      expect(refused.upstream).toEqual([]);
    },
  );

  it("answers introspection and the keyless list without a key", async () => {
    const keyless = ["{ __typename }", "{ __schema { queryType { name } } }"];
    if (served.getQueryType()?.getFields()._service) keyless.push("{ _service { sdl } }");
    for (const query of keyless) {
      const answered = await refusedKeyless(harness, "query", query);
      expect(answered.status).toBe(200);
      expect(answered.body.errors).toBeUndefined();
      expect(answered.upstream).toEqual([]);
    }
  });
});
