import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";

type Schema = Record<string, unknown>;

import { SEED_IDS } from "../../src/sandbox/seed-data.ts";
import { ACME, ACME_ORGANIZATION, GLOBEX } from "./harness.ts";
import { type McpHarness, startMcp } from "./mcp-support.ts";

/** Every property typed, every object closed: what strict clients ask of an input schema. */
function untypedPlaces(schema: Record<string, unknown>, at = "$"): string[] {
  const wrong: string[] = [];
  if (schema.type === undefined && schema.anyOf === undefined) wrong.push(`${at}: no type`);
  const types = [schema.type].flat();
  if (
    types.includes("object") &&
    schema.properties !== undefined &&
    schema.additionalProperties !== false
  ) {
    wrong.push(`${at}: open object`);
  }
  for (const [name, property] of Object.entries(
    (schema.properties ?? {}) as Record<string, Record<string, unknown>>,
  )) {
    wrong.push(...untypedPlaces(property, `${at}.${name}`));
  }
  if (schema.items)
    wrong.push(...untypedPlaces(schema.items as Record<string, unknown>, `${at}[]`));
  for (const branch of (schema.anyOf ?? []) as Array<Record<string, unknown>>) {
    wrong.push(...untypedPlaces(branch, at));
  }
  return wrong;
}

describe("MCP tools over the SDK's own client", () => {
  let mcp: McpHarness;
  beforeAll(async () => {
    mcp = await startMcp();
  });
  afterAll(() => mcp.close());

  it("lists each named query as a tool with a typed, closed input schema", async () => {
    const client = await mcp.connect(ACME);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["AgentName", "Conversations", "Organization"]);
    const ajv = new AjvJsonSchemaValidator();
    for (const tool of tools) {
      expect(untypedPlaces(tool.inputSchema)).toEqual([]);
      // Both compile: a schema Ajv cannot compile throws here.
      ajv.getValidator(tool.inputSchema as never);
      ajv.getValidator(tool.outputSchema as never);
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    }
    const agent = tools.find((tool) => tool.name === "AgentName");
    expect(agent?.inputSchema).toEqual({
      type: "object",
      properties: { id: { type: "string" } },
      required: ["id"],
      additionalProperties: false,
    });
    const conversations: Schema =
      tools.find((tool) => tool.name === "Conversations")?.inputSchema ?? {};
    const filter = (conversations.properties as Record<string, Schema>).filter ?? {};
    const [object, nothing] = filter.anyOf as Schema[];
    expect(nothing).toEqual({ type: "null" });
    expect(object).toMatchObject({ type: "object", additionalProperties: false });
    const status = (object?.properties as Record<string, Schema> | undefined)?.status ?? {};
    expect((status.anyOf as Array<{ enum?: string[] }>)[0]?.enum).toContain("SUCCESS");
    // The author's comment where there is one, else the schema's words on its root fields.
    expect(tools.find((tool) => tool.name === "Organization")?.description).toBe(
      "The caller's organization: its name and city.",
    );
    expect(agent?.description).toMatch(/^agent: An agent by ID/);
  });

  it("runs a tool with the caller's key and answers structuredContent", async () => {
    const client = await mcp.connect(ACME);
    mcp.takeUpstreamRequests();
    const result = await client.callTool({ name: "Organization", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      organization: {
        name: ACME_ORGANIZATION.name,
        city: ACME_ORGANIZATION.city,
        timezone: ACME_ORGANIZATION.timezone,
      },
    });
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? "")).toEqual(
      result.structuredContent,
    );
    // One upstream call, as the same query on /graphql makes.
    expect(mcp.takeUpstreamRequests()).toEqual(["GET /v1/organization"]);
    // Counted in the gateway's metrics as any operation is.
    const counted = async () =>
      Number(
        /^voicegraph_operations_total\{type="query",outcome="OK"\} (\d+)/m.exec(
          await (await fetch(`${mcp.url}/metrics`)).text(),
        )?.[1] ?? 0,
      );
    const before = await counted();
    await client.callTool({ name: "Organization", arguments: {} });
    expect(await counted()).toBe(before + 1);
  });

  it("answers a wrong key's call with isError, UNAUTHENTICATED and a requestId", async () => {
    const client = await mcp.connect("Bearer sk_test_nobody");
    const result = await client.callTool({ name: "Organization", arguments: {} });
    expect(result.isError).toBe(true);
    const structured = result.structuredContent as Record<string, unknown>;
    expect(structured.code).toBe("UNAUTHENTICATED");
    expect(structured.requestId).toMatch(/^[\w.-]+$/);
    expect((result.content as Array<{ text: string }>)[0]?.text).toContain("UNAUTHENTICATED");
  });

  it("answers a GraphQL error of the operation with its catalogue code", async () => {
    const client = await mcp.connect(ACME);
    const result = await client.callTool({ name: "AgentName", arguments: { id: "agt_nobody" } });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as Record<string, unknown>).code).toBe("NOT_FOUND");
  });

  it("refuses arguments outside the input schema and runs nothing", async () => {
    const client = await mcp.connect(ACME);
    mcp.takeUpstreamRequests();
    for (const args of [{}, { id: 7 }, { id: SEED_IDS.acmeAgent, extra: true }]) {
      const result = await client.callTool({ name: "AgentName", arguments: args });
      expect(result.isError).toBe(true);
      expect((result.structuredContent as Record<string, unknown>).code).toBe("BAD_USER_INPUT");
    }
    expect(mcp.takeUpstreamRequests()).toEqual([]);
  });

  it("answers an unknown tool with a JSON-RPC error", async () => {
    const client = await mcp.connect(ACME);
    await expect(client.callTool({ name: "NoSuchTool", arguments: {} })).rejects.toThrow(
      /Unknown tool: NoSuchTool/,
    );
  });

  it("keeps two callers' answers apart", async () => {
    const [acme, globex] = await Promise.all([mcp.connect(ACME), mcp.connect(GLOBEX)]);
    const [a, g] = await Promise.all([
      acme.callTool({ name: "Organization", arguments: {} }),
      globex.callTool({ name: "Organization", arguments: {} }),
    ]);
    const nameOf = (result: typeof a) =>
      (result.structuredContent as { organization: { name: string } }).organization.name;
    expect(nameOf(a)).toBe(ACME_ORGANIZATION.name);
    expect(nameOf(g)).not.toBe(ACME_ORGANIZATION.name);
    const agent = await globex.callTool({
      name: "AgentName",
      arguments: { id: SEED_IDS.acmeAgent },
    });
    expect(agent.isError).toBe(true);
  });
});

describe("MCP mutations", () => {
  it("are tools only with MCP_MUTATIONS, destructive where the operation table deletes", async () => {
    const mcp = await startMcp({ mcp: { mutations: true } });
    try {
      const { tools } = await (await mcp.connect(ACME)).listTools();
      const hints = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
      expect(hints.DeleteCampaign).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      expect(hints.RenameOrganization).toMatchObject({
        readOnlyHint: false,
        destructiveHint: false,
      });
      expect(Object.keys(hints)).not.toContain("Follow");
    } finally {
      await mcp.close();
    }
  });
});

describe("MCP output schemas", () => {
  it("hold every test operation's answer (the SDK client checks structuredContent)", async () => {
    const folder = join(import.meta.dirname, "../operations");
    const files = Object.fromEntries(
      readdirSync(folder).map((name) => [name, readFileSync(join(folder, name), "utf8")]),
    );
    const mcp = await startMcp({ files });
    onTestFinished(() => mcp.close());
    const client = await mcp.connect(ACME);
    const { tools } = await client.listTools();
    // Seeded IDs for each required variable: by its name where the name tells, else an agent's.
    const idFor = (tool: string, variable: string) =>
      /document/i.test(variable)
        ? SEED_IDS.acmeDocument
        : /^Campaign/.test(tool)
          ? SEED_IDS.acmeCampaignWithFailedRows
          : SEED_IDS.acmeAgent;
    const answered: string[] = [];
    for (const tool of tools) {
      const schema = tool.inputSchema as {
        properties: Record<string, Schema>;
        required?: string[];
      };
      const args = Object.fromEntries(
        (schema.required ?? []).map((name) => {
          const type = schema.properties[name]?.type;
          const value =
            type === "boolean"
              ? true
              : type === "array"
                ? [idFor(tool.name, name)]
                : idFor(tool.name, name);
          return [name, value];
        }),
      );
      const result = await client.callTool({ name: tool.name, arguments: args });
      // The settings matrix's one operation written to be refused (`first: 500`) is refused here too.
      const refused = tool.name === "MatrixTooMany";
      expect([tool.name, result.isError ?? false]).toEqual([tool.name, refused]);
      answered.push(tool.name);
    }
    expect(answered.length).toBeGreaterThan(15);
  });
});
