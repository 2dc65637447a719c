import { readdirSync, readFileSync } from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The sandbox is a second, independent reading of the REST description. If it imported
 * the gateway's DTOs, enums or helpers (even as types), a gateway test against it would only show
 * that one reading agrees with itself. Every file of the sandbox and of its tests is read here.
 */
const ROOT = resolve(import.meta.dirname, "../..");
const JUDGED = ["src/sandbox", "test/sandbox"];
const FORBIDDEN = ["src/upstream", "src/connections", "src/schema", "src/gateway"];

function everyFile(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => resolve(entry.parentPath, entry.name));
}

/**
 * The module specifiers a text names: `import … from`, `import type … from`, `export … from`,
 * a bare `import "…"`, `import("…")` and `require("…")`.
 */
function specifiersIn(text: string): string[] {
  const patterns = [
    /\b(?:import|export)\b[^;]*?\bfrom\s*(["'`])([^"'`]+)\1/g,
    /\bimport\s*(["'`])([^"'`]+)\1/g,
    /\b(?:import|require)\s*\(\s*(["'`])([^"'`]+)\1/g,
  ];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[2] ?? ""));
}

/** The repository path a specifier names from `file`, or the specifier itself for a package. */
function target(file: string, specifier: string): string {
  if (!specifier.startsWith(".") && !specifier.startsWith("/")) return specifier;
  return relative(ROOT, resolve(dirname(file), specifier))
    .split(sep)
    .join("/");
}

const forbidden = (path: string) =>
  FORBIDDEN.some((layer) => path === layer || path.startsWith(`${layer}/`));

describe("the sandbox's independence from the gateway", () => {
  const files = JUDGED.flatMap((dir) => everyFile(resolve(ROOT, dir)));

  it("reads the sandbox's sources and tests", () => {
    expect(files.length).toBeGreaterThan(60);
    expect(files.map((file) => relative(ROOT, file))).toContain(
      ["test", "sandbox", "independence.test.ts"].join(sep),
    );
  });

  it("no file under src/sandbox or test/sandbox imports the gateway's layers", () => {
    const wrong = files.flatMap((file) =>
      specifiersIn(readFileSync(file, "utf8"))
        .map((specifier) => target(file, specifier))
        .filter(forbidden)
        .map((path) => `${relative(ROOT, file)} → ${path}`),
    );
    expect(wrong).toEqual([]);
  });

  it("sees every form of import", () => {
    const probe = resolve(ROOT, "src/sandbox/probe.ts");
    const text = [
      'import { a } from "../upstream/dto.ts";',
      'import type { B } from "../schema/types.ts";',
      "import {\n  type C,\n  d,\n} from '../connections/loaders.ts';",
      'export { e } from "../gateway/server.ts";',
      'export type * from "../upstream/enums.ts";',
      'import "../gateway/side-effect.ts";',
      'const f = await import("../upstream/json.ts");',
      'const g = require("../schema/x.ts");',
      'import { z } from "zod";',
      'import { ConfigError } from "../env.ts";',
      'import { store } from "./store.ts";',
    ].join("\n");
    const paths = specifiersIn(text).map((specifier) => target(probe, specifier));
    expect(paths.filter(forbidden).sort()).toEqual([
      "src/connections/loaders.ts",
      "src/gateway/server.ts",
      "src/gateway/side-effect.ts",
      "src/schema/types.ts",
      "src/schema/x.ts",
      "src/upstream/dto.ts",
      "src/upstream/enums.ts",
      "src/upstream/json.ts",
    ]);
    expect(paths).toEqual(expect.arrayContaining(["zod", "src/env.ts", "src/sandbox/store.ts"]));
  });
});
