import { defineConfig } from "@graphql-mesh/compose-cli";
import { loadOpenAPISubgraph } from "@omnigraph/openapi";

// bench/peer.ts writes the sandbox's OpenAPI document to PEER_OPENAPI and names the sandbox in
// PEER_UPSTREAM. The document's paths already carry the /v1 prefix, so the endpoint is the bare
// origin (with `/v1` appended every call went to /v1/v1/… and answered the 404 member of the union).
export const composeConfig = defineConfig({
  subgraphs: [
    {
      sourceHandler: loadOpenAPISubgraph("Sandbox", {
        source: process.env.PEER_OPENAPI ?? "./openapi.json",
        endpoint: process.env.PEER_UPSTREAM as string,
        operationHeaders: { Authorization: "{context.headers.authorization}" },
      }),
    },
  ],
  // The OpenAPI document declares no links: a conversation names its agent and its contact by id
  // only. These fields add them the way a Mesh user would, each resolved by delegating to the
  // generated root field with the id from the parent (requiredSelectionSet fetches it even when the
  // query does not ask for it). The REST API has no batch route (no list of agents or contacts by
  // ids), so there is nothing for keysArg/keyField to batch into: one GET per conversation and link.
  // The fields answer the root fields' unions (the resource, or Error for a non-2xx status).
  // The dashboard's own agent needs no link: its voice configs come with GET /v1/agents/{agentId}
  // and its stats are the root field getAgentStats, asked alongside (bench/peer.ts PEER_DASHBOARD).
  additionalTypeDefs: /* GraphQL */ `
    extend type Conversation {
      agent: getAgent_response
        @resolveTo(
          sourceName: "Sandbox"
          sourceTypeName: "Query"
          sourceFieldName: "getAgent"
          requiredSelectionSet: "{ agentId }"
          sourceArgs: { agentId: "{root.agentId}" }
        )
      contactStats: getContactStats_response
        @resolveTo(
          sourceName: "Sandbox"
          sourceTypeName: "Query"
          sourceFieldName: "getContactStats"
          requiredSelectionSet: "{ contactId }"
          sourceArgs: { contactId: "{root.contactId}" }
        )
    }
  `,
});
