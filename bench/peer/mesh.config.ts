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
});
