import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** glibc's default malloc thresholds, held fixed: without them a freed large block raises both. */
const TUNABLES = "glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072";
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

describe("npm start's memory settings", () => {
  it("turn on the compile cache, two malloc arenas and fixed malloc thresholds, unless the environment names its own", () => {
    expect(START).toMatch(/^NODE_COMPILE_CACHE=\$\{NODE_COMPILE_CACHE-[^}\s]+\} /);
    expect(START).toMatch(/ MALLOC_ARENA_MAX=\$\{MALLOC_ARENA_MAX-2\} /);
    expect(START).toContain(` GLIBC_TUNABLES=\${GLIBC_TUNABLES-${TUNABLES}} exec node `);
  });

  it("give V8 a 6 MB semi-space, a 20 % old-space growth, its optimizing compiler on the main thread and an idle-time collection that keeps the compiled code", () => {
    expect(START).toMatch(
      / exec node --max-semi-space-size=6 --heap-growing-percent=20 --no-concurrent-recompilation --no-memory-reducer-favors-memory src\/main\.ts$/,
    );
  });

  it("are the container's too: the Dockerfile sets the same variables and flags", () => {
    const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
    expect(dockerfile).toMatch(/^\s+MALLOC_ARENA_MAX=2\b/m);
    expect(dockerfile).toContain(`GLIBC_TUNABLES=${TUNABLES}`);
    expect(dockerfile).toMatch(/^\s+NODE_COMPILE_CACHE=\S+/m);
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    const flags = START.split(/\s+/).filter((word) => word.startsWith("--"));
    expect(JSON.parse(cmd ?? "[]")).toEqual(["node", ...flags, "src/main.ts"]);
  });

  it("reach the serving process, whose compile cache is written as soon as it listens, not only at an exit a killed process never reaches", async () => {
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
      // npm's shell was replaced by node (exec), which glibc read MALLOC_ARENA_MAX in.
      const environment = readFileSync(`/proc/${gateway.pid}/environ`, "utf8").split("\0");
      expect(environment).toContain("MALLOC_ARENA_MAX=2");
      // glibc applies GLIBC_TUNABLES as the process starts and rewrites its own copy of it, which
      // then names only the first tunable: that one is the process's proof.
      const tunables = environment.find((variable) => variable.startsWith("GLIBC_TUNABLES="));
      expect(`GLIBC_TUNABLES=${TUNABLES}`.startsWith(tunables ?? "-")).toBe(true);
      expect(tunables).toMatch(/^GLIBC_TUNABLES=glibc\.malloc\.mmap_threshold=131072/);
      const argv = readFileSync(`/proc/${gateway.pid}/cmdline`, "utf8").split("\0");
      expect(argv).toContain("--max-semi-space-size=6");
      expect(argv).toContain("--heap-growing-percent=20");
      expect(argv).toContain("--no-concurrent-recompilation");
      expect(argv).toContain("--no-memory-reducer-favors-memory");
    } finally {
      gateway.kill("SIGKILL");
      await upstream.close();
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
