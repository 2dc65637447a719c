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

type OperationRoute = Extract<RouteDefinition, { kind: "operation" }>;
type MethodRoute = Omit<OperationRoute, "path">;
type Query = OperationRoute["query"];

/** Operation `seed` of the seed's table. */
const seed = (number: number, method: HttpMethod, operation: Operation, query: Query = []) =>
  ({ kind: "operation", seed: number, assumed: false, method, operation, query }) as const;

/** An operation the seed mentions without showing it. */
const assumed = (method: HttpMethod, operation: Operation, query: Query = []) =>
  ({ kind: "operation", seed: null, assumed: true, method, operation, query }) as const;

/** The routes of one path, in the order a 405's `Allow` lists their methods. */
const at = (path: string, ...routes: MethodRoute[]): RouteDefinition[] =>
  routes.map((route) => ({ ...route, path }));

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

/** By path, in the document's order; the seed's numbers say which operation of its table. */
export const ROUTES: readonly RouteDefinition[] = [
  ...at("/v1/organization", seed(1, "GET", getOrganization), seed(2, "PATCH", updateOrganization)),
  ...at(
    "/v1/agents",
    assumed("POST", createAgent),
    assumed("GET", listAgents, ["page", "pageSize"]),
  ),
  ...at("/v1/agents/{agentId}", seed(3, "GET", getAgent), seed(4, "PATCH", updateAgent)),
  ...at("/v1/agents/{agentId}/stats", seed(5, "GET", getAgentStats)),
  ...at("/v1/phone-numbers/assign", seed(6, "POST", assignPhoneNumber)),
  ...at("/v1/conversations", seed(7, "GET", listConversations, conversationListQuery)),
  ...at("/v1/conversations/{conversationId}/status", seed(8, "GET", getConversationStatus)),
  ...at("/v1/properties/{propertyDefinitionId}", seed(9, "DELETE", deletePropertyDefinition)),
  ...at("/v1/contacts/{contactId}/stats", seed(10, "GET", getContactStats)),
  ...at("/v1/campaigns", assumed("GET", listCampaigns, ["cursor", "limit", "status"])),
  ...at(
    "/v1/campaigns/{campaignId}",
    seed(11, "DELETE", deleteCampaign),
    assumed("GET", getCampaign),
  ),
  ...at("/v1/campaigns/{campaignId}/retry", seed(12, "POST", retryCampaign)),
  ...at("/v1/tools/catalog", seed(13, "GET", getToolCatalog)),
  ...at("/v1/documents/{documentId}", seed(14, "GET", getDocument)),
  {
    kind: "public-document",
    method: "GET",
    path: "/v1/openapi.json",
    document: () => openApiDocument,
  },
];

/** The query parameters `route` accepts in `dialect`. */
export function routeQuery(route: OperationRoute, dialect: Dialect): readonly string[] {
  return typeof route.query === "function" ? route.query(dialect) : route.query;
}

export function isWrite(method: string): boolean {
  return method === "POST" || method === "PATCH" || method === "DELETE";
}
