/**
 * Path items: the seed's fourteen operations, the four assumed ones (`x-assumed: true`) and the
 * document itself, grouped by tag (operation.ts adds each path's `{name}` parameters).
 */

import {
  CampaignStatus,
  ConversationChannel,
  ConversationDirection,
  ConversationStatus,
} from "../vocabulary.ts";
import { enumOf, int, jsonBody, ok, query, ref, str } from "./helpers.ts";
import { DELETED, readOne, tagged, WRITE } from "./operation.ts";

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
  ...tagged("Organization", {
    "/v1/organization": {
      get: {
        operationId: "getOrganization",
        summary: "Get the organization of the API key",
        success: { 200: ok("The organization.", ref("Organization")) },
      },
      patch: {
        operationId: "updateOrganization",
        summary: "Update the organization",
        requestBody: jsonBody("UpdateOrganizationBody"),
        success: { 200: ok("The updated organization.", ref("Organization")) },
        errors: [...WRITE, 422],
      },
    },
  }),
  ...tagged("Agents", {
    "/v1/agents": {
      get: {
        operationId: "listAgents",
        summary: "List agents (page form)",
        assumed: true,
        parameters: [
          query("page", int({ minimum: 1, default: 1 }), "Page number, from 1."),
          query("pageSize", int({ minimum: 1, maximum: 100, default: 20 }), "Items per page."),
        ],
        success: { 200: ok("A page of agents.", ref("AgentPage")) },
      },
      post: {
        operationId: "createAgent",
        summary: "Create an agent",
        assumed: true,
        description: "Answers 409 when the organization already has an agent with that name.",
        requestBody: jsonBody("CreateAgentBody"),
        success: { 201: ok("The created agent.", ref("Agent")) },
        errors: [...WRITE, 409, 422],
      },
    },
    "/v1/agents/{agentId}": {
      get: { operationId: "getAgent", ...readOne("Get an agent", "The agent.", "Agent") },
      patch: {
        operationId: "updateAgent",
        summary: "Update an agent",
        description: "The response is the agent without `status`, as the seed shows it.",
        requestBody: jsonBody("UpdateAgentBody"),
        success: { 200: ok("The updated agent.", ref("AgentUpdateResponse")) },
        errors: [...WRITE, 404, 409, 422],
      },
    },
    "/v1/agents/{agentId}/stats": {
      get: {
        operationId: "getAgentStats",
        ...readOne(
          "Get an agent's conversation statistics",
          "The agent's statistics.",
          "AgentStats",
        ),
      },
    },
  }),
  ...tagged("Phone numbers", {
    "/v1/phone-numbers/assign": {
      post: {
        operationId: "assignPhoneNumber",
        summary: "Assign a phone number to an agent",
        requestBody: jsonBody("AssignPhoneNumberBody"),
        success: { 200: ok("The phone number, now assigned.", ref("PhoneNumber")) },
        errors: [...WRITE, 404, 409, 422],
      },
    },
  }),
  ...tagged("Conversations", {
    "/v1/conversations": {
      get: {
        operationId: "listConversations",
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
      },
    },
    "/v1/conversations/{conversationId}/status": {
      get: {
        operationId: "getConversationStatus",
        description: "Meant for polling during an active call.",
        ...readOne(
          "Poll a conversation's status",
          "The conversation's status view.",
          "ConversationStatusView",
        ),
      },
    },
  }),
  ...tagged("Properties", {
    "/v1/properties/{propertyDefinitionId}": {
      delete: {
        operationId: "deletePropertyDefinition",
        summary: "Delete a property definition",
        ...DELETED,
      },
    },
  }),
  ...tagged("Contacts", {
    "/v1/contacts/{contactId}/stats": {
      get: {
        operationId: "getContactStats",
        ...readOne(
          "Get a contact's call and interaction statistics",
          "The contact's statistics.",
          "ContactStats",
        ),
      },
    },
  }),
  ...tagged("Campaigns", {
    "/v1/campaigns": {
      get: {
        operationId: "listCampaigns",
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
      },
    },
    "/v1/campaigns/{campaignId}": {
      get: {
        operationId: "getCampaign",
        assumed: true,
        ...readOne("Get a campaign", "The campaign.", "Campaign"),
      },
      delete: {
        operationId: "deleteCampaign",
        summary: "Delete a campaign",
        description: "Answers 409 when the campaign's state forbids deletion.",
        ...DELETED,
        errors: [...DELETED.errors, 409],
      },
    },
    "/v1/campaigns/{campaignId}/retry": {
      post: {
        operationId: "retryCampaign",
        summary: "Retry a campaign's failed rows",
        description: "No request body. Answers 409 when the campaign's state forbids a retry.",
        success: { 200: ok("Retry initiated.", ref("RetryCampaignResponse")) },
        errors: [...WRITE, 404, 409],
      },
    },
  }),
  ...tagged("Tools", {
    "/v1/tools/catalog": {
      get: {
        operationId: "getToolCatalog",
        summary: "Get the catalog of tools",
        success: { 200: ok("The tool catalog.", ref("ToolCatalogResponse")) },
      },
    },
  }),
  ...tagged("Documents", {
    "/v1/documents/{documentId}": {
      get: {
        operationId: "getDocument",
        ...readOne("Get a knowledge-base document", "The document.", "Document"),
      },
    },
  }),
};
