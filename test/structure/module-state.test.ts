import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Nothing in src/ is shared between two gateways created in one process: what is per gateway is
 * made in createGateway and passed down, what is per operation travels in its context. A
 * module-level `let`, or a module-level collection one can add to, would be shared by every
 * gateway of the process; this test names each one. A collection typed read-only
 * (`ReadonlySet`, `ReadonlyMap`) is a constant table and passes.
 */
const SRC = resolve(import.meta.dirname, "../../src");

/** The few that are meant, each with the reason it shares nothing a gateway could tell apart. */
const ALLOWED: Record<string, string> = {
  "gateway/pages/graphiql-page.ts loaded":
    "GraphiQL's assets, read from the package on first use: the same bytes for every gateway",
  "gateway/observability/logger.ts requestScope":
    "an AsyncLocalStorage: each request's async chain sees only its own scope",
  "sandbox/main.ts config": "the sandbox's own entry point: one process, one sandbox",
  "gateway/admission/compiled-variables.ts parsers":
    "compiled coercions, weakly keyed by operation node: a pure function of it and its schema",
  "schema/node-by-id.ts documentAnswers":
    "which fields a selection names, weakly keyed by its field nodes: a pure function of them",
  "gateway/answer/use-upstream-report.ts resetInstants":
    "ISO instants of reset seconds, bounded: a pure function of the second",
  "upstream/operations.ts ROUTES":
    "each operation row's route text, weakly keyed by the row: a pure function of it",
  "fleet/rate-limiter.ts loaded":
    "rate-limiter-flexible's module, required on first use: node's module cache holds it anyway",
};

const MUTABLE_COLLECTIONS = new Set([
  "Map",
  "Set",
  "WeakMap",
  "WeakSet",
  "WeakRef",
  "Array",
  "LRUCache",
  "AsyncLocalStorage",
]);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

// Biome formats every file, so a module-level declaration starts its line and nothing nested does.
const LET = /^(?:export\s+)?(?:let|var)\s+(\w+)/gm;
const CONST =
  /^(?:export\s+)?const\s+(\w+)\s*(?::\s*([^=]+?))?\s*=\s*(new\s+(\w+)|\[\s*\]|\{\s*\})/gm;

/** "<file> <name>" for each module-level `let`/`var` and each mutable module-level collection. */
function moduleStateOf(pathInSrc: string, text: string): string[] {
  const found = [...text.matchAll(LET)].map((match) => ({ at: match.index, name: match[1] }));
  for (const match of text.matchAll(CONST)) {
    const [, name, type = "", , made] = match;
    // A collection typed read-only is a constant table.
    if (/^Readonly(Set|Map|Array)\b|^readonly\s/.test(type.trim())) continue;
    if (made !== undefined && !MUTABLE_COLLECTIONS.has(made)) continue;
    found.push({ at: match.index, name });
  }
  return found.sort((a, b) => a.at - b.at).map(({ name }) => `${pathInSrc} ${name}`);
}

describe("module-level state in src/", () => {
  const found = filesUnder(SRC).flatMap((file) =>
    moduleStateOf(relative(SRC, file), readFileSync(file, "utf8")),
  );

  it("holds nothing mutable but the allowed entries, each with its reason", () => {
    expect(found.filter((entry) => !(entry in ALLOWED))).toEqual([]);
  });

  it("allows nothing that is no longer there", () => {
    expect(Object.keys(ALLOWED).filter((entry) => !found.includes(entry))).toEqual([]);
  });

  it("the judge sees lets, collections and empty literals, and passes read-only tables", () => {
    const text = [
      "let counter = 0;",
      "var legacy;",
      "const byKey = new Map<string, number>();",
      "export const seen = new WeakSet<object>();",
      "const cache = new LRUCache({ max: 10 });",
      "const pending = [];",
      "const registry = {};",
      "const TABLE: ReadonlySet<string> = new Set(['a']);",
      "const NAMES: ReadonlyMap<string, number> = new Map([['a', 1]]);",
      "const LIMIT = 5;",
      "function inside() {",
      "  let local = new Map();",
      "  return local;",
      "}",
    ].join("\n");
    expect(moduleStateOf("probe.ts", text)).toEqual([
      "probe.ts counter",
      "probe.ts legacy",
      "probe.ts byKey",
      "probe.ts seen",
      "probe.ts cache",
      "probe.ts pending",
      "probe.ts registry",
    ]);
  });
});
