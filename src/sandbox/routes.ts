import type { Dialect } from "./dialects.ts";
import { openApiDocument } from "./openapi.ts";
import type { Operation } from "./operation-context.ts";
import { createAgent, updateAgent } from "./operations/agent-writes.ts";
import { getAgent, getAgentStats, listAgents } from "./operations/agents.ts";
import {
  deleteCampaign,
  getCampaign,
  listCampaigns,
  retryCampaign,
} from "./operations/campaigns.ts";
import { getContactStats } from "./operations/contacts.ts";
import { getConversationStatus, listConversations } from "./operations/conversations.ts";
import { getDocument } from "./operations/documents.ts";
import { getOrganization, updateOrganization } from "./operations/organization.ts";
import { assignPhoneNumber } from "./operations/phone-numbers.ts";
import { deletePropertyDefinition } from "./operations/properties.ts";
import { getToolCatalog } from "./operations/tools.ts";

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/**
 * One row per REST operation. `seed` is the operation's number in the seed's table; `assumed`
 * marks the operations the seed says exist without showing them (contract §2) — this table is
 * the one place in the code that lists them. POST, PATCH and DELETE are writes (403 for a
 * read-only key).
 */
export type RouteDefinition = {
  method: HttpMethod;
  /** `{name}` segments are path parameters. */
  path: string;
} & (
  | {
      kind: "operation";
      seed: number | null;
      assumed: boolean;
      operation: Operation;
      /** Query parameters it accepts (per dialect where names differ); any other is 400. */
      query: readonly string[] | ((dialect: Dialect) => readonly string[]);
    }
  /** Served without an API key (the OpenAPI document). */
  | { kind: "public-document"; document: () => unknown }
);

function seedOperation(
  seed: number,
  method: HttpMethod,
  path: string,
  operation: Operation,
  query: readonly string[] | ((dialect: Dialect) => readonly string[]) = [],
) {
  return { kind: "operation", seed, assumed: false, method, path, operation, query } as const;
}

function assumedOperation(
  method: HttpMethod,
  path: string,
  operation: Operation,
  query: readonly string[] = [],
) {
  return { kind: "operation", seed: null, assumed: true, method, path, operation, query } as const;
}

/** Operation 7's parameters; the free-text one is named by the dialect. */
const conversationListQuery = (dialect: Dialect) =>
  [
    "limit",
    "offset",
    "agentId",
    "contactId",
    "status",
    "direction",
    "channel",
    dialect.searchParam,
    "startDate",
    "endDate",
  ] as const;

export const ROUTES: readonly RouteDefinition[] = [
  seedOperation(1, "GET", "/v1/organization", getOrganization),
  seedOperation(2, "PATCH", "/v1/organization", updateOrganization),
  seedOperation(3, "GET", "/v1/agents/{agentId}", getAgent),
  seedOperation(4, "PATCH", "/v1/agents/{agentId}", updateAgent),
  seedOperation(5, "GET", "/v1/agents/{agentId}/stats", getAgentStats),
  seedOperation(6, "POST", "/v1/phone-numbers/assign", assignPhoneNumber),
  seedOperation(7, "GET", "/v1/conversations", listConversations, conversationListQuery),
  seedOperation(8, "GET", "/v1/conversations/{conversationId}/status", getConversationStatus),
  seedOperation(9, "DELETE", "/v1/properties/{propertyDefinitionId}", deletePropertyDefinition),
  seedOperation(10, "GET", "/v1/contacts/{contactId}/stats", getContactStats),
  seedOperation(11, "DELETE", "/v1/campaigns/{campaignId}", deleteCampaign),
  seedOperation(12, "POST", "/v1/campaigns/{campaignId}/retry", retryCampaign),
  seedOperation(13, "GET", "/v1/tools/catalog", getToolCatalog),
  seedOperation(14, "GET", "/v1/documents/{documentId}", getDocument),
  // Assumed: the seed mentions agent creation and a campaign list without showing them.
  assumedOperation("POST", "/v1/agents", createAgent),
  assumedOperation("GET", "/v1/agents", listAgents, ["page", "pageSize"]),
  assumedOperation("GET", "/v1/campaigns", listCampaigns, ["cursor", "limit", "status"]),
  assumedOperation("GET", "/v1/campaigns/{campaignId}", getCampaign),
  {
    kind: "public-document",
    method: "GET",
    path: "/v1/openapi.json",
    document: () => openApiDocument,
  },
];

/** The query parameters `route` accepts in `dialect`. */
export function routeQuery(
  route: Extract<RouteDefinition, { kind: "operation" }>,
  dialect: Dialect,
): readonly string[] {
  return typeof route.query === "function" ? route.query(dialect) : route.query;
}

export function isWrite(method: string): boolean {
  return method === "POST" || method === "PATCH" || method === "DELETE";
}
