import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { DIALECTS } from "../../src/sandbox/dialects.ts";
import { openApiDocument } from "../../src/sandbox/openapi.ts";
import { ORGANIZATION_FIELDS } from "../../src/sandbox/request-shapes.ts";
import { ROUTES, routeQuery } from "../../src/sandbox/routes.ts";
import { startSandbox } from "../../src/sandbox/server.ts";
import {
  AgentStatus,
  CampaignStatus,
  ConversationStatus,
  DocumentStatus,
} from "../../src/sandbox/vocabulary.ts";
import { call } from "./http.ts";

type Json = { [key: string]: unknown };
type Operation = Json & { operationId: string; security?: Json[]; responses: Json };

const SEED_OPERATIONS = {
  "GET /v1/organization": "getOrganization",
  "PATCH /v1/organization": "updateOrganization",
  "GET /v1/agents/{agentId}": "getAgent",
  "PATCH /v1/agents/{agentId}": "updateAgent",
  "GET /v1/agents/{agentId}/stats": "getAgentStats",
  "POST /v1/phone-numbers/assign": "assignPhoneNumber",
  "GET /v1/conversations": "listConversations",
  "GET /v1/conversations/{conversationId}/status": "getConversationStatus",
  "DELETE /v1/properties/{propertyDefinitionId}": "deletePropertyDefinition",
  "GET /v1/contacts/{contactId}/stats": "getContactStats",
  "DELETE /v1/campaigns/{campaignId}": "deleteCampaign",
  "POST /v1/campaigns/{campaignId}/retry": "retryCampaign",
  "GET /v1/tools/catalog": "getToolCatalog",
  "GET /v1/documents/{documentId}": "getDocument",
} as const;

const ASSUMED_OPERATIONS = {
  "POST /v1/agents": "createAgent",
  "GET /v1/agents": "listAgents",
  "GET /v1/campaigns": "listCampaigns",
  "GET /v1/campaigns/{campaignId}": "getCampaign",
} as const;

const DOCUMENT_OPERATION = { "GET /v1/openapi.json": "getOpenApiDocument" } as const;

const doc = openApiDocument as Json & {
  paths: Record<string, Record<string, Operation>>;
  components: Json & { schemas: Record<string, Json & { properties?: Record<string, Json> }> };
};

const operations = new Map<string, Operation>(
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as const),
  ),
);

const schema = (name: string) => {
  const s = doc.components.schemas[name];
  if (s === undefined) throw new Error(`no schema ${name}`);
  return s;
};
const prop = (schemaName: string, field: string) => schema(schemaName).properties?.[field];

describe("sandbox OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    // validate() dereferences its argument in place: give it a copy.
    const result = await validate(
      structuredClone(openApiDocument) as Parameters<typeof validate>[0],
    );
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
    expect(result.specification).toBe("OpenAPI");
    expect(doc.openapi).toBe("3.1.0");
  });

  // The parser does not look inside 3.1 schemas (a `type: "strin"` passes), so check the types.
  it("uses only JSON Schema type names in its schemas", () => {
    const TYPES = new Set(["string", "integer", "number", "boolean", "object", "array", "null"]);
    const bad: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (typeof node !== "object" || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        const types = typeof value === "string" ? [value] : value;
        if (key === "type" && Array.isArray(types) && types.some((t) => !TYPES.has(t))) {
          bad.push(`${at}/type`);
        }
        walk(value, `${at}/${key}`);
      }
    };
    walk(doc.paths, "#/paths");
    walk(doc.components.schemas, "#/components/schemas");
    walk(doc.components.headers, "#/components/headers");
    expect(bad).toEqual([]);
  });

  it("survives a JSON round trip (it is served as JSON)", () => {
    expect(JSON.parse(JSON.stringify(openApiDocument))).toEqual(openApiDocument);
  });

  it("lists exactly the seed, assumed and document operations, with their operationIds", () => {
    const expected = { ...SEED_OPERATIONS, ...ASSUMED_OPERATIONS, ...DOCUMENT_OPERATION };
    const actual = Object.fromEntries([...operations].map(([key, op]) => [key, op.operationId]));
    expect(actual).toEqual(expected);
  });

  it("marks exactly the assumed operations with x-assumed and says so", () => {
    for (const [key, op] of operations) {
      const assumed = key in ASSUMED_OPERATIONS;
      expect(op["x-assumed"] === true, key).toBe(assumed);
      if (assumed) expect(op.description, key).toMatch(/mentions it but does not show it/);
    }
  });

  it("documents exactly the routes the sandbox serves, with their path and query parameters", () => {
    const served = ROUTES.map((route) => `${route.method} ${route.path}`);
    expect(served.sort()).toEqual([...operations.keys()].sort());
    for (const route of ROUTES) {
      const key = `${route.method} ${route.path}`;
      const op = operations.get(key) as Operation & { parameters?: Json[] };
      const named = (where: string) =>
        (op.parameters ?? []).filter((p) => p.in === where).map((p) => p.name);
      const inPath = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
      expect(named("path"), key).toEqual(inPath);
      if (route.kind !== "operation") continue;
      expect(op["x-assumed"] === true, key).toBe(route.assumed);
      expect(named("query"), key).toEqual([...routeQuery(route, DIALECTS.standard)]);
    }
  });

  it("requires bearer auth everywhere except on the document itself", () => {
    expect(doc.components).toMatchObject({
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
    });
    expect(doc.security).toBeUndefined();
    for (const [key, op] of operations) {
      if (key in DOCUMENT_OPERATION) expect(op.security, key).toEqual([]);
      else expect(op.security, key).toEqual([{ bearerAuth: [] }]);
    }
  });

  it("documents 400, 401, 429, 500, default and the rate-limit headers on every authenticated operation", () => {
    for (const [key, op] of operations) {
      if (key in DOCUMENT_OPERATION) continue;
      expect(Object.keys(op.responses), key).toEqual(
        expect.arrayContaining(["400", "401", "429", "500", "default"]),
      );
      const success = Object.entries(op.responses).filter(([status]) => status.startsWith("2"));
      expect(success, key).toHaveLength(1);
      for (const [, response] of success) {
        expect(Object.keys((response as Json).headers as Json), key).toEqual([
          "X-RateLimit-Limit",
          "X-RateLimit-Remaining",
          "X-RateLimit-Reset",
        ]);
      }
    }
    expect(doc.components).toMatchObject({
      responses: {
        TooManyRequests: { headers: { "Retry-After": {}, "X-RateLimit-Reset": {} } },
      },
    });
  });

  it("documents the status codes the brief asks for", () => {
    const statuses = (key: string) => Object.keys(operations.get(key)?.responses ?? {});
    expect(statuses("PATCH /v1/organization")).toEqual(
      expect.arrayContaining(["200", "400", "401", "403", "422", "429"]),
    );
    expect(statuses("POST /v1/agents")).toEqual(expect.arrayContaining(["201", "409"]));
    expect(statuses("DELETE /v1/campaigns/{campaignId}")).toEqual(
      expect.arrayContaining(["204", "409"]),
    );
    expect(statuses("POST /v1/campaigns/{campaignId}/retry")).toEqual(
      expect.arrayContaining(["200", "409"]),
    );
    expect(statuses("DELETE /v1/properties/{propertyDefinitionId}")).toContain("204");
  });

  it("declares its enums from the DTO constants", () => {
    expect(prop("Agent", "status")?.enum).toEqual([...AgentStatus.options]);
    expect(prop("Conversation", "status")?.enum).toEqual([...ConversationStatus.options]);
    expect(prop("Campaign", "status")?.enum).toEqual([...CampaignStatus.options]);
    expect(prop("Document", "status")?.enum).toEqual([...DocumentStatus.options]);
    expect(Object.keys(schema("UpdateOrganizationBody").properties ?? {})).toEqual([
      ...ORGANIZATION_FIELDS,
    ]);
    for (const body of [
      "UpdateOrganizationBody",
      "UpdateAgentBody",
      "CreateAgentBody",
      "AssignPhoneNumberBody",
    ]) {
      expect(schema(body).additionalProperties, body).toBe(false);
    }
  });

  it("uses 3.1-style nullability and keeps status out of the update-agent response", () => {
    expect(prop("ConversationStatusView", "endedAt")?.type).toEqual(["string", "null"]);
    expect(prop("CampaignPage", "nextCursor")?.type).toEqual(["string", "null"]);
    expect(JSON.stringify(doc)).not.toContain('"nullable"');
    expect(prop("AgentUpdateResponse", "status")).toBeUndefined();
    expect(schema("Agent").required).toContain("status");
  });

  it("says it describes the standard dialect", () => {
    expect((doc.info as Json).description).toContain("`standard` dialect");
  });

  it("derives request bodies from the sandbox's validators: what it lists is accepted, nothing else", async () => {
    expect(schema("CreateAgentBody").required).toEqual(["name"]);
    expect(schema("UpdateAgentBody").required).toBeUndefined();
    expect([...((schema("AssignPhoneNumberBody").required as string[]) ?? [])].sort()).toEqual([
      "agentId",
      "phoneNumberId",
    ]);
    expect(schema("VoiceConfigInput").required).toEqual(["voiceId", "language"]);
    expect(Object.keys(schema("CreateAgentBody").properties ?? {})).toContain("supportedLanguages");
    const sandbox = await startSandbox();
    try {
      const organizationFields = Object.keys(schema("UpdateOrganizationBody").properties ?? {});
      const timezone = await call(sandbox, "/v1/organization", {
        method: "PATCH",
        body: { timezone: "Europe/Paris" },
      });
      expect(organizationFields).toContain("timezone");
      expect(timezone.status).toBe(200);
      const undocumented = await call(sandbox, "/v1/organization", {
        method: "PATCH",
        body: { plan: "gold" },
      });
      expect(organizationFields).not.toContain("plan");
      expect(undocumented.status).toBe(400);
      const withoutName = await call(sandbox, "/v1/agents", { method: "POST", body: {} });
      expect(withoutName.status).toBeGreaterThanOrEqual(400);
      expect(withoutName.status).toBeLessThan(500);
    } finally {
      await sandbox.close();
    }
  });
});
