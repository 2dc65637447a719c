import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createMcpEndpoint, type McpEndpoint } from "../../src/gateway/mcp/endpoint.ts";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { startSandbox } from "../../src/sandbox/server.ts";
import { closedAfterEachTest } from "../support/closing.ts";
import { startFleetStore } from "../support/fleet-store.ts";
import { ACME, type Instance, startInstance, waitUntil } from "./fleet-harness.ts";

const closing = closedAfterEachTest();
const LIVE = SEED_IDS.acmeLiveConversation;
const URI = `voicegraph://conversations/${LIVE}/status`;

/** A fleet instance that also serves /mcp (tools: none; the status resource is the point). */
async function instanceWithMcp(store: Parameters<typeof startInstance>[0], upstreamUrl: string) {
  let endpoint: McpEndpoint | undefined;
  const instance: Instance = await startInstance(
    store,
    upstreamUrl,
    {},
    {
      mcp: {
        handles: (path) => endpoint?.handles(path) ?? false,
        serve: (req, res) => (endpoint as McpEndpoint).serve(req, res),
        close: () => endpoint?.close() ?? Promise.resolve(),
      },
    },
  );
  endpoint = createMcpEndpoint(instance.gateway, {
    schema: instance.gateway.getEnveloped().schema,
    source: { none: true },
    mutations: false,
    schemaTools: false,
    trustedOnly: false,
    corsOrigins: ["*"],
    maxRequestBytes: 1024 * 1024,
    logger: { warn: () => undefined },
    version: "test",
  });
  return instance;
}

describe("MCP status subscribers across a fleet", () => {
  it("are served by one poller, whichever instance each subscribed on", async () => {
    const store = closing(await startFleetStore());
    const sandbox = closing(await startSandbox({ port: 0, callIntervalMs: 600_000 }));
    const instances = [
      closing(await instanceWithMcp(store, sandbox.url)),
      closing(await instanceWithMcp(store, sandbox.url)),
    ];
    const updates = [0, 0];
    const clients = await Promise.all(
      instances.map(async (instance, i) => {
        const client = closing(new Client({ name: "fleet-test", version: "1" }));
        await client.connect(
          new StreamableHTTPClientTransport(new URL(`${instance.url}/mcp`), {
            requestInit: { headers: { authorization: ACME } },
          }),
        );
        client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => {
          updates[i] = (updates[i] ?? 0) + 1;
        });
        return client;
      }),
    );
    await Promise.all(clients.map((client) => client.subscribeResource({ uri: URI })));
    // The live call's duration moves every second: both subscribers hear of it.
    await waitUntil(() => updates.every((count) => count > 0), 10_000, "both told");
    const owned = instances.map(
      (instance) => instance.gateway.conversationStatusHub.ownedPollerCount,
    );
    expect(owned.sort()).toEqual([0, 1]);
  });
});
