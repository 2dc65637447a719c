/**
 * Path items: the seed's fourteen operations, the four assumed ones (`x-assumed: true`) and the
 * document itself.
 */

import { SANDBOX_ID_PREFIX } from "../ids.ts";
import {
  CampaignStatus,
  ConversationChannel,
  ConversationDirection,
  ConversationStatus,
} from "../vocabulary.ts";
import { enumOf, int, jsonBody, ok, pathId, query, ref, str } from "./helpers.ts";
import { op, WRITE } from "./operation.ts";

const agentId = pathId("agentId", "Agent", SANDBOX_ID_PREFIX.agent);
const campaignId = pathId("campaignId", "Campaign", SANDBOX_ID_PREFIX.campaign);

const limitParam = (def: number, what: string) =>
  query("limit", int({ minimum: 1, maximum: 100, default: def }), `Maximum ${what} returned.`);

export const paths = {
  "/v1/openapi.json": {
    get: {
      operationId: "getOpenApiDocument",
      tags: ["Meta"],
      summary: "This OpenAPI document",
      security: [],
      responses: {
        200: {
          description: "The OpenAPI 3.1 document.",
          content: { "application/json": { schema: { type: "object" } } },
        },
      },
    },
  },
  "/v1/organization": {
    get: op("getOrganization", {
      tag: "Organization",
      summary: "Get the organization of the API key",
      success: { 200: ok("The organization.", ref("Organization")) },
    }),
    patch: op("updateOrganization", {
      tag: "Organization",
      summary: "Update the organization",
      requestBody: jsonBody("UpdateOrganizationBody"),
      success: { 200: ok("The updated organization.", ref("Organization")) },
      errors: [...WRITE, 422],
    }),
  },
  "/v1/agents": {
    get: op("listAgents", {
      tag: "Agents",
      summary: "List agents (page form)",
      assumed: true,
      parameters: [
        query("page", int({ minimum: 1, default: 1 }), "Page number, from 1."),
        query("pageSize", int({ minimum: 1, maximum: 100, default: 20 }), "Items per page."),
      ],
      success: { 200: ok("A page of agents.", ref("AgentPage")) },
    }),
    post: op("createAgent", {
      tag: "Agents",
      summary: "Create an agent",
      assumed: true,
      description: "Answers 409 when the organization already has an agent with that name.",
      requestBody: jsonBody("CreateAgentBody"),
      success: { 201: ok("The created agent.", ref("Agent")) },
      errors: [...WRITE, 409, 422],
    }),
  },
  "/v1/agents/{agentId}": {
    get: op("getAgent", {
      tag: "Agents",
      summary: "Get an agent",
      parameters: [agentId],
      success: { 200: ok("The agent.", ref("Agent")) },
      errors: [404],
    }),
    patch: op("updateAgent", {
      tag: "Agents",
      summary: "Update an agent",
      description: "The response is the agent without `status`, as the seed shows it.",
      parameters: [agentId],
      requestBody: jsonBody("UpdateAgentBody"),
      success: { 200: ok("The updated agent.", ref("AgentUpdateResponse")) },
      errors: [...WRITE, 404, 409, 422],
    }),
  },
  "/v1/agents/{agentId}/stats": {
    get: op("getAgentStats", {
      tag: "Agents",
      summary: "Get an agent's conversation statistics",
      parameters: [agentId],
      success: { 200: ok("The agent's statistics.", ref("AgentStats")) },
      errors: [404],
    }),
  },
  "/v1/phone-numbers/assign": {
    post: op("assignPhoneNumber", {
      tag: "Phone numbers",
      summary: "Assign a phone number to an agent",
      requestBody: jsonBody("AssignPhoneNumberBody"),
      success: { 200: ok("The phone number, now assigned.", ref("PhoneNumber")) },
      errors: [...WRITE, 404, 409, 422],
    }),
  },
  "/v1/conversations": {
    get: op("listConversations", {
      tag: "Conversations",
      summary: "List conversations (limit/offset form)",
      parameters: [
        limitParam(50, "conversations"),
        query("offset", int({ minimum: 0, default: 0 }), "Conversations to skip."),
        query("agentId", str(), "Only conversations of this agent."),
        query("contactId", str(), "Only conversations with this contact."),
        query("status", enumOf(ConversationStatus.options), "Only conversations in this status."),
        query("direction", enumOf(ConversationDirection.options), "Only this direction."),
        query("channel", enumOf(ConversationChannel.options), "Only this channel."),
        query("search", str(), "Free-text search."),
        query("startDate", { type: "string", format: "date-time" }, "Started at or after."),
        query("endDate", { type: "string", format: "date-time" }, "Started at or before."),
      ],
      success: { 200: ok("A page of conversations.", ref("ConversationPage")) },
      errors: [422],
    }),
  },
  "/v1/conversations/{conversationId}/status": {
    get: op("getConversationStatus", {
      tag: "Conversations",
      summary: "Poll a conversation's status",
      description: "Meant for polling during an active call.",
      parameters: [pathId("conversationId", "Conversation", SANDBOX_ID_PREFIX.conversation)],
      success: { 200: ok("The conversation's status view.", ref("ConversationStatusView")) },
      errors: [404],
    }),
  },
  "/v1/properties/{propertyDefinitionId}": {
    delete: op("deletePropertyDefinition", {
      tag: "Properties",
      summary: "Delete a property definition",
      parameters: [
        pathId("propertyDefinitionId", "Property definition", SANDBOX_ID_PREFIX.property),
      ],
      success: { 204: ok("Deleted.") },
      errors: [...WRITE, 404],
    }),
  },
  "/v1/contacts/{contactId}/stats": {
    get: op("getContactStats", {
      tag: "Contacts",
      summary: "Get a contact's call and interaction statistics",
      parameters: [pathId("contactId", "Contact", SANDBOX_ID_PREFIX.contact)],
      success: { 200: ok("The contact's statistics.", ref("ContactStats")) },
      errors: [404],
    }),
  },
  "/v1/campaigns": {
    get: op("listCampaigns", {
      tag: "Campaigns",
      summary: "List campaigns (cursor form)",
      assumed: true,
      description:
        "A stale, altered or foreign cursor (other filters or organization) answers 400 " +
        "INVALID_CURSOR; restart from the first page.",
      parameters: [
        query("cursor", str(), "Opaque `nextCursor` of the previous page; do not build or edit."),
        limitParam(25, "campaigns"),
        query("status", enumOf(CampaignStatus.options), "Only campaigns in this status."),
      ],
      success: { 200: ok("A page of campaigns.", ref("CampaignPage")) },
    }),
  },
  "/v1/campaigns/{campaignId}": {
    get: op("getCampaign", {
      tag: "Campaigns",
      summary: "Get a campaign",
      assumed: true,
      parameters: [campaignId],
      success: { 200: ok("The campaign.", ref("Campaign")) },
      errors: [404],
    }),
    delete: op("deleteCampaign", {
      tag: "Campaigns",
      summary: "Delete a campaign",
      description: "Answers 409 when the campaign's state forbids deletion.",
      parameters: [campaignId],
      success: { 204: ok("Deleted.") },
      errors: [...WRITE, 404, 409],
    }),
  },
  "/v1/campaigns/{campaignId}/retry": {
    post: op("retryCampaign", {
      tag: "Campaigns",
      summary: "Retry a campaign's failed rows",
      description: "No request body. Answers 409 when the campaign's state forbids a retry.",
      parameters: [campaignId],
      success: { 200: ok("Retry initiated.", ref("RetryCampaignResponse")) },
      errors: [...WRITE, 404, 409],
    }),
  },
  "/v1/tools/catalog": {
    get: op("getToolCatalog", {
      tag: "Tools",
      summary: "Get the catalog of tools",
      success: { 200: ok("The tool catalog.", ref("ToolCatalogResponse")) },
    }),
  },
  "/v1/documents/{documentId}": {
    get: op("getDocument", {
      tag: "Documents",
      summary: "Get a knowledge-base document",
      parameters: [pathId("documentId", "Document", SANDBOX_ID_PREFIX.document)],
      success: { 200: ok("The document.", ref("Document")) },
      errors: [404],
    }),
  },
};
