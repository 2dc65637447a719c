import { getNamedType, isObjectType, parse, validate } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { schema } from "../../src/schema/index.ts";
import { type Harness, startHarness } from "./harness.ts";

/** Every object type that implements Node. */
const nodeTypes = Object.values(schema.getTypeMap()).filter(
  (type) => isObjectType(type) && type.getInterfaces().some((i) => i.name === "Node"),
);

describe("a schema client caches can trust", () => {
  it("gives every Node type's shared field names one type, so mixed `nodes` selections validate", () => {
    // The contract names distinct enums for `status`; a client aliases them (README).
    const distinctByContract = new Set(["status"]);
    const pairs: string[] = [];
    for (const a of nodeTypes) {
      for (const b of nodeTypes) {
        if (!isObjectType(a) || !isObjectType(b) || a.name >= b.name) continue;
        const bFields = b.getFields();
        for (const field of Object.values(a.getFields())) {
          const other = bFields[field.name];
          if (!other || distinctByContract.has(field.name)) continue;
          // Object-typed fields merge by their sub-selection; a leaf must be the very same type.
          if (!isObjectType(getNamedType(field.type))) {
            const document = parse(
              `{ nodes(ids: []) { ... on ${a.name} { ${field.name} } ... on ${b.name} { ${field.name} } } }`,
            );
            if (validate(schema, document).length > 0)
              pairs.push(`${a.name}/${b.name}.${field.name}`);
          }
        }
      }
    }
    expect(nodeTypes.map((type) => type.name).sort()).toEqual([
      "Agent",
      "Campaign",
      "Contact",
      "Conversation",
      "Document",
      "Organization",
      "PropertyDefinition",
    ]);
    expect(pairs).toEqual([]);
  });

  it("makes the organization a node keyed by the upstream's own ID", () => {
    expect(schema.getType("Organization")?.toString()).toBe("Organization");
    const organization = schema.getType("Organization");
    expect(isObjectType(organization) && organization.getInterfaces().map((i) => i.name)).toEqual([
      "Node",
    ]);
  });
});

describe("errors stay contained", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(() => harness.close());

  it("keeps the organization beside a connection that failed", async () => {
    // An agents cursor on the conversations: refused while the operation runs.
    const agents = await harness.graphql<{ agents: { pageInfo: { endCursor: string } } }>(
      "{ agents(first: 1) { pageInfo { endCursor } } }",
    );
    const cursor = agents.body.data?.agents.pageInfo.endCursor;
    harness.takeUpstreamRequests();
    const response = await harness.graphql(
      `{ organization { id name } conversations(after: "${cursor}") { totalCount } }`,
    );
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      organization: { id: SEED_IDS.acmeOrganization, name: "Acme Health" },
      conversations: null,
    });
    expect(response.body.errors?.map((error) => [error.path, error.extensions?.code])).toEqual([
      [["conversations"], "CURSOR_MISMATCH"],
    ]);
    expect(harness.takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
  });

  it("keeps the lists beside an organization that failed", async () => {
    harness.sandbox.injectFault({ path: "/v1/organization", status: 500 });
    const response = await harness.graphql(
      "{ organization { name } agents(first: 1) { totalCount } toolCatalog { id } }",
    );
    expect(response.body.data?.organization).toBeNull();
    expect(response.body.data?.agents).toEqual({ totalCount: 45 });
    expect(Array.isArray(response.body.data?.toolCatalog)).toBe(true);
    expect(response.body.errors?.map((error) => [error.path, error.extensions?.code])).toEqual([
      [["organization"], "UPSTREAM_ERROR"],
    ]);
  });
});
