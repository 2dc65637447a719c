import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The process defaults are stated once (docs/operations.md) and given in two places: npm start
// and the container. Each must give node the same flags and NODE_ENV, or one of them runs
// another process.
const root = new URL("../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");
const start = (JSON.parse(read("package.json")) as { scripts: { start: string } }).scripts.start;
const dockerfile = read("Dockerfile");

describe("npm start and the Dockerfile", () => {
  it("give node the same flags", () => {
    const fromStart = start.split(/\s+/).filter((word) => word.startsWith("--"));
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    expect(cmd, "the Dockerfile's CMD, in exec form").toBeDefined();
    const fromDockerfile = (JSON.parse(cmd as string) as string[]).filter((word) =>
      word.startsWith("--"),
    );
    expect(fromDockerfile).toEqual(fromStart);
  });

  it("run in production unless told otherwise", () => {
    // npm start's default, which an environment's own NODE_ENV overrides.
    expect(start).toMatch(/^NODE_ENV=\$\{NODE_ENV-production\} /);
    expect(dockerfile).toMatch(/^ENV NODE_ENV=production\b/m);
  });
});
