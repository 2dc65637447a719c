import { defineConfig } from "@graphql-mesh/compose-cli";
import { loadOpenAPISubgraph } from "@omnigraph/openapi";

// The bench writes openapi.json (fetched from the sandbox) and names the sandbox in PEER_UPSTREAM.
// The document's paths already carry the /v1 prefix, so the endpoint is the sandbox's bare origin
// (with `/v1` appended every call went to /v1/v1/… and answered the 404 member of the union).
export const composeConfig = defineConfig({
  subgraphs: [
    {
      sourceHandler: loadOpenAPISubgraph("Sandbox", {
        source: "./openapi.json",
        endpoint: process.env.PEER_UPSTREAM as string,
        operationHeaders: { Authorization: "{context.headers.authorization}" },
      }),
    },
  ],
});
