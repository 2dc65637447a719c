import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { connectError } from "../support/connect.ts";
import { scriptPerTest } from "../support/scripts.ts";
import { closedPortUrl } from "../upstream/recording-upstream.ts";

// The frictions of a newcomer's first hour that only a real start shows: each error says what
// to do, in one line.

const start = scriptPerTest("src/main.ts", { LOG_LEVEL: "warn" });
const sandbox = scriptPerTest("src/sandbox/main.ts");

async function exitOf(child: import("node:child_process").ChildProcess) {
  const [code] = (await once(child, "exit")) as [number | null];
  return code;
}

describe("errors at start-up that say what to do", () => {
  it("stops on a busy port with one line naming PORT, and no stack trace", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as { port: number };
    try {
      const run = start({ PORT: String(port) });
      expect(await exitOf(run.child)).toBe(1);
      const { stdout, stderr } = run.output();
      expect(stderr.trim().split("\n")).toEqual([
        `voicegraph could not start: port ${port} on 127.0.0.1 is in use; set PORT to another port (PORT=0: any free port)`,
      ]);
      expect(`${stdout}${stderr}`).not.toMatch(/Internal error| {4}at /);
    } finally {
      taken.close();
    }
  });

  it("stops `npm run sandbox` on a busy port with one line naming SANDBOX_PORT, and no stack trace", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as { port: number };
    try {
      const run = sandbox({ SANDBOX_PORT: String(port) });
      expect(await exitOf(run.child)).toBe(1);
      const { stdout, stderr } = run.output();
      expect(stderr.trim().split("\n")).toEqual([
        `sandbox could not start: port ${port} on 127.0.0.1 is in use; set SANDBOX_PORT to another port (SANDBOX_PORT=0: any free port)`,
      ]);
      expect(`${stdout}${stderr}`).not.toMatch(/Internal error| {4}at /);
    } finally {
      taken.close();
    }
  });

  it("names UPSTREAM_URL when it has no scheme", async () => {
    const run = start({ UPSTREAM_URL: "127.0.0.1:59998" });
    expect(await exitOf(run.child)).toBe(1);
    expect(run.output().stderr.trim()).toBe(
      'UPSTREAM_URL must start with its scheme, http:// or https://, e.g. http://127.0.0.1:4010 (got "127.0.0.1:59998")',
    );
  });

  it("says once at start-up that the upstream cannot be reached, and starts all the same", async () => {
    const upstream = await closedPortUrl();
    const run = start({ UPSTREAM_URL: upstream, PORT: "0" });
    const banner = await run.stdoutWith(/GraphQL at (http:\S+)\/graphql/);
    const url = /GraphQL at (http:\S+)\/graphql/.exec(banner)?.[1] as string;
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ready: false, upstream: "unreachable" });
    for (
      let waited = 0;
      waited < 45_000 && !run.output().stderr.includes("not reachable");
      waited += 50
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const warnings = run
      .output()
      .stderr.split("\n")
      .filter((line) => line.includes("not reachable"));
    expect(warnings).toEqual([
      `voicegraph: the upstream ${upstream} is not reachable now; operations answer UPSTREAM_UNAVAILABLE until it is, and /readyz says so`,
    ]);
  });

  it("npm run sandbox hands SIGTERM to the process that serves", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const npm = spawn("npm", ["run", "--silent", "sandbox"], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        SANDBOX_PORT: String(port),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    npm.stdout?.on("data", (chunk) => {
      stdout += chunk;
    });
    npm.stderr?.resume();
    for (let waited = 0; waited < 45_000 && !stdout.includes("listening"); waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(stdout).toContain(`listening on http://127.0.0.1:${port}`);
    const exited = once(npm, "exit");
    npm.kill("SIGTERM");
    await exited;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await connectError(port)).toBe("ECONNREFUSED");
  }, 120_000);
});
