import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// No dead weight. Every dependency is imported by the code, the tests, the bench or the
// scripts, or is one of the tools below, used by name rather than imported.

const ROOT = resolve(import.meta.dirname, "../..");
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Used without an import, and why. */
const USED_BY_NAME: Record<string, string> = {
  node: "pins Node 24 for every npm script",
  typescript: "npm run typecheck (tsc)",
  "@types/node": "types for tsc",
  "@types/ws": "types for tsc",
  "@biomejs/biome": "npm run lint",
  "@graphql-codegen/cli": "npm run codegen",
  "@graphql-codegen/client-preset": "codegen.ts's preset: client",
  vitest: "npm test",
  "patch-package": "postinstall: applies patches/ (docs/development.md)",
  "@modelcontextprotocol/inspector": "test/processes/mcp-inspector.test.ts runs its CLI",
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.name === "node_modules" || entry.name === "generated-peer") return [];
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

const code = ["src", "test", "bench", "scripts"]
  .flatMap((dir) => sources(join(ROOT, dir)))
  .concat(["codegen.ts", "vitest.config.ts"].map((file) => join(ROOT, file)))
  .map((file) => readFileSync(file, "utf8"))
  .join("\n");

describe("package.json", () => {
  it("lists no dependency that nothing imports or runs", () => {
    const names = [...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)];
    const unused = names.filter((name) => {
      if (name in USED_BY_NAME) return false;
      const imported = new RegExp(
        `(from|import\\()\\s*["']${name.replace(/[/.]/g, "\\$&")}(/[^"']*)?["']`,
      );
      return !imported.test(code);
    });
    expect(unused).toEqual([]);
  });
});
