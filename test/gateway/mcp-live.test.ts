import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { FOLLOW_STATUS } from "../../src/gateway/mcp/status-resource.ts";
import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { ACME, ACME_ORGANIZATION, GLOBEX } from "./harness.ts";
import { startMcp } from "./mcp-support.ts";

function waitFor(condition: () => boolean, timeout: number) {
  return vi.waitFor(() => expect(condition()).toBe(true), { timeout, interval: 20 });
}

const LIVE = `voicegraph://conversations/${SEED_IDS.acmeLiveConversation}/status`;

describe("MCP resources: a conversation's live status", () => {
  it("reads the status with one upstream call, with the reader's own key", async () => {
    const mcp = await startMcp();
    onTestFinished(() => mcp.close());
    const client = await mcp.connect(ACME);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      "voicegraph://conversations/{id}/status",
      "voicegraph://operations/{name}{?arguments}",
    ]);
    mcp.takeUpstreamRequests();
    const read = await client.readResource({ uri: LIVE });
    const status = JSON.parse((read.contents[0] as { text: string }).text);
    expect(status).toMatchObject({ ended: false, startedAt: expect.any(String) });
    expect(mcp.takeUpstreamRequests()).toEqual([
      `GET /v1/conversations/${SEED_IDS.acmeLiveConversation}/status`,
    ]);
    // Another organization's key reads nothing of it.
    const globex = await mcp.connect(GLOBEX);
    await expect(globex.readResource({ uri: LIVE })).rejects.toThrow(/NOT_FOUND|FORBIDDEN/);
    await expect(client.readResource({ uri: "voicegraph://elsewhere" })).rejects.toThrow(
      /No resource/,
    );
  });

  it("tells a subscriber when the status changes, from the gateway's one poller", async () => {
    // A call of two seconds: its duration changes, then it ends.
    const mcp = await startMcp({ sandbox: { callDurationMs: 2_500 } });
    onTestFinished(() => mcp.close());
    const client = await mcp.connect(ACME);
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updates.push(notification.params.uri);
    });
    await client.subscribeResource({ uri: LIVE });
    await waitFor(() => updates.length > 0, 10_000);
    expect(updates[0]).toBe(LIVE);
    expect(mcp.gateway.conversationStatusHub.pollerCount).toBe(1);
    await client.unsubscribeResource({ uri: LIVE });
    await waitFor(() => mcp.gateway.conversationStatusHub.pollerCount === 0, 5_000);
  });
});

describe("MCP tools follow their folder", () => {
  it("picks up a changed document, tells the client, and keeps the last good tools", async () => {
    const warnings: string[] = [];
    const mcp = await startMcp({
      mcp: { logger: { warn: (line) => warnings.push(String(line)) } },
    });
    onTestFinished(() => mcp.close());
    const client = await mcp.connect(ACME);
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes += 1;
    });
    writeFileSync(join(mcp.folder, "more.graphql"), "query ToolCatalog { toolCatalog { name } }\n");
    await waitFor(() => changes === 1, 5_000);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(["AgentName", "Conversations", "Organization", "ToolCatalog"]);
    // A document that no longer parses: its tools go, with a warning naming it; the rest stay.
    writeFileSync(join(mcp.folder, "more.graphql"), "query Broken {");
    await waitFor(() => changes === 2, 5_000);
    expect(warnings.some((line) => line.includes("more.graphql"))).toBe(true);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "AgentName",
      "Conversations",
      "Organization",
    ]);
    // The folder gone: a reload that fails keeps the last good tools.
    rmSync(mcp.folder, { recursive: true, force: true });
    await waitFor(() => warnings.some((line) => line.includes("kept as they were")), 5_000);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "AgentName",
      "Conversations",
      "Organization",
    ]);
    expect(changes).toBe(2);
  });
});

describe("MCP sessions left idle", () => {
  it("are closed after the idle time, unless they follow a resource", async () => {
    const mcp = await startMcp({ mcp: { sessionIdleMs: 1_000 } });
    onTestFinished(() => mcp.close());
    const idle = await mcp.connect(ACME);
    const following = await mcp.connect(ACME);
    await following.subscribeResource({ uri: LIVE });
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await expect(idle.listTools()).rejects.toThrow(/404|session/i);
    expect((await following.listTools()).tools.length).toBeGreaterThan(0);
  });
});

describe("MCP resources: a read-only tool's answer", () => {
  it("reads it with the reader's key and tells a subscriber when a write changes it", async () => {
    const mcp = await startMcp();
    onTestFinished(() => mcp.close());
    const client = await mcp.connect(ACME);
    const uri = "voicegraph://operations/Organization";
    const read = await client.readResource({ uri });
    const before = JSON.parse((read.contents[0] as { text: string }).text);
    expect(before.organization.name).toBe(ACME_ORGANIZATION.name);
    const agentUri = `voicegraph://operations/AgentName?arguments=${encodeURIComponent(
      JSON.stringify({ id: SEED_IDS.acmeAgent }),
    )}`;
    const agent = await client.readResource({ uri: agentUri });
    expect(JSON.parse((agent.contents[0] as { text: string }).text).agent.id).toBe(
      SEED_IDS.acmeAgent,
    );
    // Arguments the tool's input schema refuses, and names of no read-only tool: nothing runs.
    mcp.takeUpstreamRequests();
    for (const wrong of [
      "voicegraph://operations/AgentName",
      "voicegraph://operations/AgentName?arguments=%7B",
      "voicegraph://operations/DeleteCampaign",
    ]) {
      await expect(client.readResource({ uri: wrong })).rejects.toThrow(
        /-32602|No resource|Arguments|JSON/,
      );
    }
    expect(mcp.takeUpstreamRequests()).toEqual([]);

    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updates.push(notification.params.uri);
    });
    await client.subscribeResource({ uri });
    await waitFor(() => mcp.gateway.liveHub.pollerCount > 0, 5_000);
    // A write through the gateway pushes at once (docs/live-queries.md).
    const renamed = await mcp.graphql(
      'mutation { updateOrganization(input: { name: "Acme Renamed" }) { organization { name } } }',
    );
    expect(renamed.body.errors).toBeUndefined();
    await waitFor(() => updates.includes(uri), 5_000);
    const after = await client.readResource({ uri });
    expect(JSON.parse((after.contents[0] as { text: string }).text).organization.name).toBe(
      "Acme Renamed",
    );
  });
});

describe("MCP subscriptions that end at once", () => {
  it("leave no poller behind, however subscribe, unsubscribe and close interleave", async () => {
    // A client that goes without a word (no DELETE) is forgotten after the idle time.
    const mcp = await startMcp({ mcp: { sessionIdleMs: 500 } });
    onTestFinished(() => mcp.close());
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom("subscribe", "unsubscribe", "read", "close"), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.scheduler(),
        async (steps, scheduler) => {
          const client = await mcp.connect(ACME);
          let closed = false;
          const runs = steps.map((step) =>
            scheduler.schedule(Promise.resolve(step)).then((next) => {
              if (closed) return;
              if (next === "close") {
                closed = true;
                return client.close();
              }
              if (next === "read") return client.readResource({ uri: LIVE }).then(() => undefined);
              return next === "subscribe"
                ? client.subscribeResource({ uri: LIVE }).then(() => undefined)
                : client.unsubscribeResource({ uri: LIVE }).then(() => undefined);
            }),
          );
          await scheduler.waitAll();
          await Promise.allSettled(runs);
          await client.close();
          await waitFor(() => mcp.gateway.conversationStatusHub.pollerCount === 0, 5_000);
        },
      ),
      { numRuns: 15 },
    );
  });
});

describe("MCP status resources with trusted documents only", () => {
  it("run when the manifest holds the status subscription docs/mcp.md prints", async () => {
    const docs = readFileSync(join(import.meta.dirname, "../../docs/mcp.md"), "utf8");
    expect(docs).toContain(`\n${FOLLOW_STATUS}\n`);
    const trusted = await startMcp({
      gateway: { persistedDocuments: { manifest: { s1: FOLLOW_STATUS }, trustedOnly: true } },
    });
    onTestFinished(() => trusted.close());
    const read = await (await trusted.connect(ACME)).readResource({ uri: LIVE });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ ended: false });
    const untrusted = await startMcp({
      gateway: {
        persistedDocuments: { manifest: { o1: "{ organization { name } }" }, trustedOnly: true },
      },
    });
    onTestFinished(() => untrusted.close());
    await expect((await untrusted.connect(ACME)).readResource({ uri: LIVE })).rejects.toThrow(
      /PERSISTED_QUERY_ONLY/,
    );
  });
});
