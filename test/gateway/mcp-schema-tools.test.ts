import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { ACME, ACME_ORGANIZATION } from "./harness.ts";
import { OPERATIONS, startMcp } from "./mcp-support.ts";

type Result = { isError?: boolean; content: Array<{ text: string }>; structuredContent?: unknown };

describe("MCP schema tools", () => {
  it("are listed only with MCP_SCHEMA_TOOLS", async () => {
    const mcp = await startMcp();
    onTestFinished(() => mcp.close());
    const { tools } = await (await mcp.connect(ACME)).listTools();
    expect(tools.map((tool) => tool.name)).not.toContain("introspect");
  });

  it("introspect, search and validate the schema; execute runs a query with the caller's key", async () => {
    const mcp = await startMcp({ mcp: { schemaTools: true } });
    onTestFinished(() => mcp.close());
    const client = await mcp.connect(ACME);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["introspect", "search", "validate", "execute"]));
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as Result;

    const agent = await call("introspect", { type_name: "Agent", depth: 2 });
    expect(agent.content[0]?.text).toContain("type Agent implements Node");
    expect(agent.content[0]?.text).toContain("type VoiceConfig");
    // Mutations are hidden while MCP_MUTATIONS is off; subscriptions always.
    expect((await call("introspect", { type_name: "Mutation" })).isError).toBe(true);
    expect((await call("introspect", { type_name: "Subscription" })).isError).toBe(true);
    expect((await call("introspect", { type_name: "Agent", depth: 9 })).isError).toBe(true);

    const found = (await call("search", { terms: ["voice"] })).content[0]?.text ?? "";
    expect(found).toContain("type VoiceConfig");
    expect(found.split("\n").length).toBeLessThanOrEqual(20);

    expect(
      (await call("validate", { operation: "{ organization { name } }" })).content[0]?.text,
    ).toBe("Operation is valid.");
    const invalid = await call("validate", { operation: "{ organization { nope } }" });
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0]?.text).toContain("nope");

    const ran = await call("execute", { query: "{ organization { name } }" });
    expect(ran.structuredContent).toEqual({ organization: { name: ACME_ORGANIZATION.name } });
    const write = await call("execute", {
      query: 'mutation { updateOrganization(input: { name: "x" }) { organization { name } } }',
    });
    expect(write.isError).toBe(true);
    expect((write.structuredContent as { code: string }).code).toBe("FORBIDDEN");
    // The gateway's own limits hold: too deep a query is refused as on /graphql.
    // Fourteen levels, past MAX_DEPTH (12).
    const deep = `{ ${"agents { nodes { ".repeat(7)}id${" } }".repeat(7)} }`;
    const refused = await call("execute", { query: deep });
    expect(refused.isError).toBe(true);
    expect((refused.structuredContent as { code: string }).code).toBe("DEPTH_LIMIT_EXCEEDED");
  });

  it("refuse execute when only trusted documents run", async () => {
    const mcp = await startMcp({ mcp: { schemaTools: true, trustedOnly: true } });
    onTestFinished(() => mcp.close());
    const client = await mcp.connect(ACME);
    mcp.takeUpstreamRequests();
    const result = (await client.callTool({
      name: "execute",
      arguments: { query: "{ organization { name } }" },
    })) as Result;
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { code: string }).code).toBe("PERSISTED_QUERY_ONLY");
    expect(mcp.takeUpstreamRequests()).toEqual([]);
  });
});

describe("MCP tools from the trusted-documents manifest", () => {
  it("offers the manifest's queries, which run in trusted-documents-only mode", async () => {
    const folder = mkdtempSync(join(tmpdir(), "voicegraph-manifest-"));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const manifest = {
      a1: OPERATIONS["organization.graphql"] as string,
      b2: OPERATIONS["agent.graphql"] as string,
    };
    const manifestFile = join(folder, "persisted-documents.json");
    writeFileSync(manifestFile, JSON.stringify(manifest));
    const mcp = await startMcp({
      gateway: { persistedDocuments: { manifest, trustedOnly: true } },
      mcp: { source: { manifestFile } },
    });
    onTestFinished(() => mcp.close());
    const client = await mcp.connect(ACME);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["AgentName", "Organization"]);
    const result = await client.callTool({ name: "Organization", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      organization: { name: ACME_ORGANIZATION.name },
    });
    // A new manifest, written as codegen's watch mode replaces it: picked up, clients told.
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes += 1;
    });
    const next = join(folder, "next.json");
    writeFileSync(next, JSON.stringify({ ...manifest, c3: OPERATIONS["conversations.graphql"] }));
    renameSync(next, manifestFile);
    await vi.waitFor(() => expect(changes).toBe(1), { timeout: 5_000, interval: 20 });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "AgentName",
      "Conversations",
      "Organization",
    ]);
    // Not in the gateway's own manifest since start-up: the gateway refuses it, as on /graphql.
    const refused = await client.callTool({ name: "Conversations", arguments: {} });
    expect((refused.structuredContent as { code: string }).code).toBe("PERSISTED_QUERY_ONLY");
  });
});
