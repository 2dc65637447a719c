import { defineConfig } from "@graphql-mesh/compose-cli";
import { loadOpenAPISubgraph } from "@omnigraph/openapi";

// The bench writes openapi.json (fetched from the sandbox) and names the sandbox in PEER_UPSTREAM.
export const composeConfig = defineConfig({
  subgraphs: [
    {
      sourceHandler: loadOpenAPISubgraph("Sandbox", {
        source: "./openapi.json",
        endpoint: `${process.env.PEER_UPSTREAM}/v1`,
        operationHeaders: { Authorization: "{context.headers.authorization}" },
      }),
    },
  ],
});
