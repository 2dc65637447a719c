import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { GatewayOptions } from "../../src/gateway/create-gateway.ts";
import {
  createMcpEndpoint,
  type McpEndpoint,
  type McpOptions,
} from "../../src/gateway/mcp/endpoint.ts";
import type { SandboxOptions } from "../../src/sandbox/server.ts";
import { type Harness, startHarness } from "./harness.ts";

/** The operations the MCP tests offer as tools: a folder of their own, one file each. */
export const OPERATIONS: Record<string, string> = {
  "organization.graphql": `# The caller's organization: its name and city.
query Organization {
  organization { name city timezone }
}
`,
  "agent.graphql": `query AgentName($id: ID!) {
  agent(id: $id) { id name status createdAt metadata }
}
`,
  "conversations.graphql": `query Conversations($first: Int, $filter: ConversationFilter) {
  conversations(first: $first, filter: $filter) { totalCount nodes { id status } }
}
`,
  "writes.graphql": `mutation DeleteCampaign($id: ID!) {
  deleteCampaign(id: $id) { deletedId }
}
mutation RenameOrganization($name: String) {
  updateOrganization(input: { name: $name }) { organization { name } }
}
`,
  "follow.graphql": `subscription Follow($id: ID!) { conversationStatus(id: $id) { ended } }
`,
};

export interface McpHarness extends Harness {
  mcpUrl: URL;
  folder: string;
  endpoint: McpEndpoint;
  /** An SDK client connected with this Authorization (null: none). */
  connect(authorization: string | null, headers?: Record<string, string>): Promise<Client>;
}

/** A sandbox, a gateway listening with /mcp, and the tools of OPERATIONS (or the given files). */
export async function startMcp(
  options: {
    mcp?: Partial<McpOptions>;
    gateway?: Partial<Omit<GatewayOptions, "upstream">>;
    sandbox?: SandboxOptions;
    files?: Record<string, string>;
  } = {},
): Promise<McpHarness> {
  const folder = mkdtempSync(join(tmpdir(), "voicegraph-mcp-"));
  for (const [name, text] of Object.entries(options.files ?? OPERATIONS)) {
    writeFileSync(join(folder, name), text);
  }
  let endpoint: McpEndpoint | undefined;
  const clients: Client[] = [];
  // listen() takes the endpoint, which needs the gateway: built on first use.
  const lazy = {
    handles: (path: string) => endpoint?.handles(path) ?? false,
    serve: (...args: Parameters<McpEndpoint["serve"]>) => (endpoint as McpEndpoint).serve(...args),
    close: () => endpoint?.close() ?? Promise.resolve(),
  };
  const harness = await startHarness({
    gateway: { pollIntervalMs: 100, ...options.gateway },
    sandbox: { callIntervalMs: 600_000, ...options.sandbox },
    listen: { mcp: lazy },
  });
  endpoint = createMcpEndpoint(harness.gateway, {
    schema: harness.gateway.getEnveloped().schema,
    source: { folder },
    mutations: false,
    schemaTools: false,
    trustedOnly: false,
    corsOrigins: ["*"],
    maxRequestBytes: 1024 * 1024,
    logger: { warn: () => undefined },
    version: "test",
    ...options.mcp,
  });
  const mcpUrl = new URL(`${harness.url}/mcp`);
  return {
    ...harness,
    mcpUrl,
    folder,
    endpoint,
    async connect(authorization, headers = {}) {
      const client = new Client({ name: "voicegraph-test", version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(mcpUrl, {
        requestInit: {
          headers: { ...(authorization === null ? {} : { authorization }), ...headers },
        },
      });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
      await harness.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
