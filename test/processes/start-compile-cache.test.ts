import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const START = (
  JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    scripts: { start: string };
  }
).scripts.start;

/** Every file under `dir`, at any depth. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("npm start's compile cache", () => {
  it("is written by the serving process as soon as it listens, not only at an exit a killed process never reaches", async () => {
    const upstream = await startSandbox({ port: 0 });
    const cache = mkdtempSync(join(tmpdir(), "voicegraph-compile-"));
    // What npm runs: its shell, with node_modules/.bin (this repository's Node) first on PATH.
    const gateway = spawn("sh", ["-c", START], {
      cwd: ROOT,
      env: {
        PATH: `${join(ROOT, "node_modules/.bin")}:${process.env.PATH ?? ""}`,
        PORT: "0",
        LOG_LEVEL: "error",
        UPSTREAM_URL: upstream.url,
        NODE_COMPILE_CACHE: cache,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      let stdout = "";
      await new Promise<void>((resolve, reject) => {
        gateway.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes("upstream:")) resolve();
        });
        gateway.on("exit", (code) => reject(new Error(`the gateway exited (${code}): ${stdout}`)));
      });
      // The flush follows the banner: wait (at most 10 s) for a cache of the modules loaded.
      let written = 0;
      for (let waited = 0; waited < 10_000 && written < 500; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        written = filesUnder(cache).length;
      }
      // Still running: what is there was written while it serves.
      expect(gateway.exitCode).toBeNull();
      expect(written).toBeGreaterThanOrEqual(500);
      // npm's shell was replaced by node (exec): the serving process is npm's child itself.
      const argv = readFileSync(`/proc/${gateway.pid}/cmdline`, "utf8").split("\0");
      expect(argv.filter(Boolean).at(-1)).toBe("src/main.ts");
    } finally {
      gateway.kill("SIGKILL");
      await upstream.close();
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
