import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The process defaults are stated once (docs/operations.md) and given in two places: npm start
// and the container. Each must give node the same flags, or one of them runs another process.
const root = new URL("../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");

describe("the node flags of npm start and of the Dockerfile", () => {
  it("are the same", () => {
    const start = (JSON.parse(read("package.json")) as { scripts: { start: string } }).scripts
      .start;
    const fromStart = start.split(/\s+/).filter((word) => word.startsWith("--"));
    const cmd = /^CMD (\[.*\])$/m.exec(read("Dockerfile"))?.[1];
    expect(cmd, "the Dockerfile's CMD, in exec form").toBeDefined();
    const fromDockerfile = (JSON.parse(cmd as string) as string[]).filter((word) =>
      word.startsWith("--"),
    );
    expect(fromDockerfile).toEqual(fromStart);
  });
});
