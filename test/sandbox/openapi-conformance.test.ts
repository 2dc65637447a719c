import { describe, expect, it } from "vitest";
import { componentShape, type SchemaName } from "../../src/sandbox/openapi/components.ts";
import { openApiDocument } from "../../src/sandbox/openapi.ts";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { type CallOptions, call, sandboxFor } from "./http.ts";

// The document's schemas are generated from the sandbox's own zod shapes; these tests hold the
// shapes to what the sandbox really answers: every documented answer parses with its shape and
// carries no field the document does not name.

type Json = { [key: string]: unknown };
const doc = openApiDocument as Json & {
  paths: Record<string, Record<string, { responses: Record<string, Json> }>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json> };
};

const sandbox = sandboxFor("file", { callIntervalMs: 3_600_000 });

/** The component a documented answer's body refers to, or undefined for no body. */
function documentedSchema(
  method: string,
  template: string,
  status: number,
): SchemaName | undefined {
  const responses = doc.paths[template]?.[method.toLowerCase()]?.responses;
  if (responses === undefined) throw new Error(`${method} ${template} is not documented`);
  let response = responses[String(status)];
  if (response === undefined) throw new Error(`${method} ${template} documents no ${status}`);
  if (typeof response.$ref === "string") {
    response = doc.components.responses[response.$ref.split("/").pop() ?? ""] as Json;
  }
  const content = response.content as Record<string, { schema: Json }> | undefined;
  const ref = content?.["application/json"]?.schema.$ref;
  return typeof ref === "string" ? (ref.split("/").pop() as SchemaName) : undefined;
}

/** Fields of `value` that its JSON Schema does not name, at any depth (`$ref`s followed). */
function unnamedFields(schema: Json, value: unknown, at: string): string[] {
  if (typeof schema.$ref === "string") {
    return unnamedFields(
      doc.components.schemas[schema.$ref.split("/").pop() ?? ""] ?? {},
      value,
      at,
    );
  }
  if (Array.isArray(value)) {
    const items = schema.items as Json | undefined;
    return items
      ? value.flatMap((item, index) => unnamedFields(items, item, `${at}[${index}]`))
      : [];
  }
  if (typeof value !== "object" || value === null) return [];
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const open = schema.additionalProperties === true || schema.type !== "object";
  return Object.entries(value).flatMap(([key, item]) => {
    const property = properties[key];
    if (property === undefined) return open ? [] : [`${at}.${key}`];
    return unnamedFields(property, item, `${at}.${key}`);
  });
}

const { acmeAgent: AGENT, acmeContact: CONTACT } = SEED_IDS;

/** [method, documented path, concrete path, status, request options] */
const ANSWERS: Array<[string, string, string, number, CallOptions?]> = [
  ["GET", "/v1/organization", "/v1/organization", 200],
  ["PATCH", "/v1/organization", "/v1/organization", 200, { body: { city: "Lyon" } }],
  ["PATCH", "/v1/organization", "/v1/organization", 400, { body: { town: "Lyon" } }],
  ["PATCH", "/v1/organization", "/v1/organization", 422, { body: { email: "no" } }],
  ["GET", "/v1/organization", "/v1/organization", 401, { key: null }],
  ["GET", "/v1/agents", "/v1/agents?pageSize=3", 200],
  ["POST", "/v1/agents", "/v1/agents", 201, { body: { name: "Conformance", metadata: { a: 1 } } }],
  ["POST", "/v1/agents", "/v1/agents", 409, { body: { name: "Conformance" } }],
  ["GET", "/v1/agents/{agentId}", `/v1/agents/${AGENT}`, 200],
  ["GET", "/v1/agents/{agentId}", "/v1/agents/agt_nobody", 404],
  ["PATCH", "/v1/agents/{agentId}", `/v1/agents/${AGENT}`, 200, { body: { greeting: "Hi" } }],
  ["GET", "/v1/agents/{agentId}/stats", `/v1/agents/${AGENT}/stats`, 200],
  [
    "POST",
    "/v1/phone-numbers/assign",
    "/v1/phone-numbers/assign",
    200,
    { body: { phoneNumberId: SEED_IDS.acmePhoneNumberUnassigned, agentId: AGENT } },
  ],
  ["GET", "/v1/conversations", "/v1/conversations?limit=3", 200],
  // Live calls: no end, no summary yet.
  ["GET", "/v1/conversations", "/v1/conversations?status=IN_PROGRESS", 200],
  [
    "GET",
    "/v1/conversations/{conversationId}/status",
    `/v1/conversations/${SEED_IDS.acmeLiveConversation}/status`,
    200,
  ],
  [
    "DELETE",
    "/v1/properties/{propertyDefinitionId}",
    `/v1/properties/${SEED_IDS.acmeProperty}`,
    204,
  ],
  ["GET", "/v1/contacts/{contactId}/stats", `/v1/contacts/${CONTACT}/stats`, 200],
  ["GET", "/v1/campaigns", "/v1/campaigns?limit=3", 200],
  ["GET", "/v1/campaigns", "/v1/campaigns?cursor=forged", 400],
  [
    "GET",
    "/v1/campaigns/{campaignId}",
    `/v1/campaigns/${SEED_IDS.acmeCampaignWithFailedRows}`,
    200,
  ],
  [
    "POST",
    "/v1/campaigns/{campaignId}/retry",
    `/v1/campaigns/${SEED_IDS.acmeCampaignWithFailedRows}/retry`,
    200,
  ],
  ["DELETE", "/v1/campaigns/{campaignId}", `/v1/campaigns/${SEED_IDS.acmeCampaignRunning}`, 409],
  ["GET", "/v1/tools/catalog", "/v1/tools/catalog", 200],
  ["GET", "/v1/documents/{documentId}", `/v1/documents/${SEED_IDS.acmeDocument}`, 200],
];

describe("sandbox answers against its OpenAPI document", () => {
  // In order: the writes build on each other (the 409 repeats the created agent's name).
  it.each(ANSWERS)(
    "%s %s (%s) answers %i, as documented",
    async (method, template, path, status, options) => {
      const answer = await call(sandbox(), path, { method, ...options });

      expect(answer.status).toBe(status);
      const name = documentedSchema(method, template, status);
      if (name === undefined) {
        expect(answer.body).toBeUndefined();
        return;
      }
      const parsed = componentShape(name).safeParse(answer.body);
      expect(parsed.success, parsed.error?.message).toBe(true);
      expect(unnamedFields({ $ref: name }, answer.body, name)).toEqual([]);
    },
  );

  it("would notice a field the document does not name", () => {
    const parsed = componentShape("AgentUpdateResponse").parse(fakeAgent()) as Json;
    const agent = { ...parsed, status: "ACTIVE" };
    expect(unnamedFields({ $ref: "AgentUpdateResponse" }, agent, "agent")).toEqual([
      "agent.status",
    ]);
  });
});

function fakeAgent() {
  const at = "2026-01-05T09:00:00.000Z";
  return {
    id: "agt_x",
    name: "X",
    primaryLanguage: "en-US",
    systemPrompt: "",
    greeting: "",
    model: "gpt-4o",
    metadata: {},
    createdAt: at,
    updatedAt: at,
    supportedLanguages: [],
    voiceConfigs: [],
  };
}
