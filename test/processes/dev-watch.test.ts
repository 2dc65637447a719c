import { spawn } from "node:child_process";
import { once } from "node:events";
import { utimesSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** How many times the gateway has printed its banner: once per start. */
const starts = (text: string) => text.split("voicegraph: GraphiQL at ").length - 1;

describe("npm run dev", () => {
  it("restarts the gateway when a file under src/ changes", async () => {
    const dev = spawn("npm", ["run", "dev"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    dev.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    const until = async (done: () => boolean) => {
      for (let waited = 0; waited < 45_000 && !done(); waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    try {
      await until(() => stdout.includes("other keys"));
      expect(starts(stdout)).toBe(1);
      // A save without a change of content: node --watch restarts on the file's new time.
      const now = new Date();
      utimesSync(`${ROOT}src/gateway/settings/defaults.ts`, now, now);
      await until(
        () => starts(stdout) === 2 && stdout.endsWith("\n") && /other keys.*\n$/.test(stdout),
      );
      expect(starts(stdout)).toBe(2);
      expect(stdout).toContain("drained, exiting");
    } finally {
      dev.kill("SIGTERM");
      await once(dev, "exit");
    }
  }, 120_000);
});
