import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe("a quiet first run", () => {
  it("npm start prints the gateway's banner first, not npm's echo of its command", async () => {
    const npm = spawn("npm", ["start"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    npm.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    npm.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    try {
      for (let waited = 0; waited < 45_000 && !stdout.includes("other keys"); waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(stdout.split("\n")[0]).toMatch(
        /^voicegraph: GraphiQL at http:\/\/127\.0\.0\.1:\d+\/graphql$/,
      );
      expect(stdout).not.toContain("> voicegraph@");
      expect(stderr).toBe("");
    } finally {
      npm.kill("SIGTERM");
      await once(npm, "exit");
    }
  }, 90_000);
});
