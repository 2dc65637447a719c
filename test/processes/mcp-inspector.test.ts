import { execFile } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scriptPerTest } from "../support/scripts.ts";

const start = scriptPerTest("src/main.ts");
const INSPECTOR = fileURLToPath(new URL("../../node_modules/.bin/mcp-inspector", import.meta.url));

/** The MCP Inspector's CLI, as a user runs it: its exit code and what it printed. */
function inspector(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [INSPECTOR, "--cli", ...args],
      { timeout: 60_000, env: { PATH: process.env.PATH ?? "", HOME: "/tmp" } },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: number }).code ?? 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe("npm start with MCP=on, driven by the MCP Inspector's CLI", () => {
  it("lists portable tools and calls one with the demo key; a missing or wrong key fails", async () => {
    const gateway = start({
      PORT: "0",
      LOG_LEVEL: "error",
      MCP: "on",
      MCP_OPERATIONS_DIR: "test/operations",
    });
    const banner = await gateway.stdoutWith("other keys");
    const url = /MCP \(AI agents\): (\S+)/.exec(banner)?.[1] as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const common = [url, "--transport", "http", "--format", "json", "-q"];
    const key = ["--header", "Authorization: Bearer sk_test_acme"];

    const list = await inspector([...common, ...key, "--method", "tools/list", "--strict"]);
    expect(list.code).toBe(0);
    // --strict reports every portability problem of a tool schema on stderr: there is none.
    expect(list.stderr).not.toMatch(/Warning|Error/);
    const names = (
      JSON.parse(list.stdout) as { result: { tools: Array<{ name: string }> } }
    ).result.tools.map((tool) => tool.name);
    expect(names).toContain("Organization");
    expect(names).not.toContain("UpdateOrganization");

    const call = await inspector([
      ...common,
      ...key,
      "--method",
      "tools/call",
      "--tool-name",
      "AgentName",
      "--tool-args-json",
      '{"id":"agt_acme_reception"}',
    ]);
    expect(call.code).toBe(0);
    expect(JSON.parse(call.stdout)).toMatchObject({
      result: { structuredContent: { agent: { id: "agt_acme_reception" } } },
    });

    const read = await inspector([
      ...common,
      ...key,
      "--method",
      "resources/read",
      "--uri",
      "voicegraph://conversations/cnv_acme_0001/status",
    ]);
    expect(read.code).toBe(0);
    const contents = (JSON.parse(read.stdout) as { result: { contents: Array<{ text: string }> } })
      .result.contents;
    expect(JSON.parse(contents[0]?.text ?? "")).toMatchObject({ ended: true });

    // The Inspector's exit codes: 3 when the server asks for authentication, 5 for isError.
    const keyless = await inspector([...common, "--method", "tools/list"]);
    expect(keyless.code).toBe(3);
    const wrong = await inspector([
      ...common,
      "--header",
      "Authorization: Bearer sk_test_nobody",
      "--method",
      "tools/call",
      "--tool-name",
      "Organization",
    ]);
    expect(wrong.code).toBe(5);
  });

  it("stops at start-up with one line naming MCP_OPERATIONS_DIR when it cannot be read", async () => {
    const gateway = start({
      PORT: "0",
      LOG_LEVEL: "error",
      MCP: "on",
      MCP_OPERATIONS_DIR: "test/no-such-folder",
    });
    const [code] = await once(gateway.child, "exit");
    expect(code).toBe(1);
    const lines = gateway.output().stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^MCP_OPERATIONS_DIR cannot be read for MCP's tools \(ENOENT/);
  });
});
