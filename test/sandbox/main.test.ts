import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const MAIN = "src/sandbox/main.ts";

function run(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function collect(child: ChildProcess) {
  const out = { stdout: "", stderr: "" };
  child.stdout?.on("data", (chunk: Buffer) => {
    out.stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    out.stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { out, exited };
}

describe("npm run sandbox (src/sandbox/main.ts)", () => {
  it("stops with one line naming a bad variable and exit code 1", async () => {
    for (const [name, value, message] of [
      ["SANDBOX_PORT", "abc", 'SANDBOX_PORT must be an integer from 0 to 65535 (got "abc")'],
      ["SANDBOX_PORT", "70000", 'SANDBOX_PORT must be an integer from 0 to 65535 (got "70000")'],
      ["SANDBOX_ERROR_RATE", "1.5", 'SANDBOX_ERROR_RATE must be a number from 0 to 1 (got "1.5")'],
      [
        "SANDBOX_RATE_LIMIT",
        "0",
        'SANDBOX_RATE_LIMIT must be an integer from 1 to 1000000000 (got "0")',
      ],
    ] as const) {
      const { out, exited } = collect(run({ [name]: value }));
      expect(await exited).toBe(1);
      expect(out.stderr).toBe(`${message}\n`);
      expect(out.stdout).toBe("");
    }
  });

  it("prints the URL and the demo keys, serves, and stops on SIGTERM", async () => {
    const child = run({ SANDBOX_PORT: "0", SANDBOX_CALL_INTERVAL_S: "5" });
    const { out, exited } = collect(child);
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed: ${out.stderr}`)), 10_000);
      child.stdout?.on("data", () => {
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(out.stdout);
        if (match?.[1] && out.stdout.includes("sk_test_acme_readonly")) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    expect(out.stdout).toContain("sk_test_acme ");
    expect(out.stdout).toContain("sk_test_globex");
    const answer = await fetch(`${url}/v1/organization`, {
      headers: { authorization: "Bearer sk_test_acme" },
    });
    expect(answer.status).toBe(200);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
