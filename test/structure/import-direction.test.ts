import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Data flows `gateway → schema → connections → upstream`, never back, with the files at
 * the root of src/ (the error catalogue, config parsing, listening) as leaves everyone may import.
 * Type imports count: a type is knowledge of the layer above. (The sandbox, which imports none of
 * these layers, is checked beside it: test/sandbox/independence.test.ts.)
 */
const SRC = resolve(import.meta.dirname, "../../src");
const LAYERS = ["upstream", "connections", "schema", "gateway"] as const;
/**
 * src/fleet/ holds the Redis-backed stores of fleet-wide state (docs/fleet.md). It sits beside
 * the layers: it may import upstream (whose stores it implements) and the leaves; the gateway
 * and main.ts wire it in.
 */
const FLEET_MAY_IMPORT = new Set(["leaf", "upstream", "fleet"]);
const LEAVES = ["errors.ts", "env.ts", "listen.ts"];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every relative module a file names: static imports and re-exports, `import type`, `import()`. */
function importsOf(file: string, text = readFileSync(file, "utf8")): string[] {
  const specifiers = [
    ...text.matchAll(/\bfrom\s+["']([^"']+)["']/g),
    ...text.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g),
    ...text.matchAll(/^import\s+["']([^"']+)["']/gm),
  ].map((match) => match[1] as string);
  return specifiers
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => relative(SRC, resolve(dirname(file), specifier)));
}

/** "gateway", "upstream", …, "leaf" for a root file, "sandbox", "main". */
function placeOf(pathInSrc: string): string {
  const [top] = pathInSrc.split("/");
  if (LEAVES.includes(pathInSrc)) return "leaf";
  return top?.endsWith(".ts") ? top.slice(0, -3) : (top as string);
}

describe("src/ imports", () => {
  it("finds the files it judges", () => {
    for (const layer of LAYERS) expect(filesUnder(join(SRC, layer)).length).toBeGreaterThan(3);
  });

  it.each(LAYERS.map((layer, rank) => [layer, rank] as const))(
    "%s imports only its own layer, the layers below it and the leaves",
    (layer, rank) => {
      const allowed = new Set<string>(["leaf", ...LAYERS.slice(0, rank + 1)]);
      if (layer === "gateway") allowed.add("fleet");
      const wrong = filesUnder(join(SRC, layer)).flatMap((file) =>
        importsOf(file)
          .filter((target) => !allowed.has(placeOf(target)))
          .map((target) => `${relative(SRC, file)} → ${target}`),
      );
      expect(wrong).toEqual([]);
    },
  );

  it("fleet imports only upstream, itself and the leaves", () => {
    const wrong = filesUnder(join(SRC, "fleet")).flatMap((file) =>
      importsOf(file)
        .filter((target) => !FLEET_MAY_IMPORT.has(placeOf(target)))
        .map((target) => `${relative(SRC, file)} → ${target}`),
    );
    expect(wrong).toEqual([]);
  });

  it.each(LEAVES)("the leaf %s imports nothing of ours", (leaf) => {
    expect(importsOf(join(SRC, leaf))).toEqual([]);
  });

  it("the judge sees type imports, re-exports and dynamic imports", () => {
    const probe = join(SRC, "schema", "probe.ts");
    const text = [
      'import type { A } from "../gateway/context.ts";',
      'export { B } from "./b.ts";',
      'const c = await import("../sandbox/server.ts");',
      'import "../errors.ts";',
      'import { z } from "zod";',
    ].join("\n");
    expect(importsOf(probe, text).map(placeOf)).toEqual(["gateway", "schema", "sandbox", "leaf"]);
  });
});

/**
 * src/gateway/ by stage, in the pipeline's order: a request arrives (`arrival/`: its size, ID
 * and refusals, over `transport/`'s server and sockets, `sse/` or `pages/`), is prepared
 * (`preparation/`: persisted documents, compiled execution, incremental delivery), judged
 * (`admission/`: key, limits, input, cost, deadline: refused before anything runs), runs with
 * `execution/`'s context and is answered (`answer/`: the upstream report, the HTTP status,
 * subscriptions and `@live` queries, whose pollers are `live/`'s). `lane/` is the fast path and
 * the prepared lane, which mirror every stage; `mcp/` is another way in. `session/` and
 * `observability/` serve every stage. What the folder's root held is `settings/`, `assembly/`
 * (the parts and the pipeline create-gateway.ts puts together) and `shared/` (one HTTP status
 * rule, one masking of errors, a document's facts): any stage imports those. The table says
 * which other stages each stage may know; a stage knows a later one only through the
 * per-operation context it reads.
 */
const GATEWAY = join(SRC, "gateway");
/** The folders that were the gateway's root: every stage may import them. */
const EVERY_STAGE_MAY_IMPORT = ["settings", "assembly", "shared"];
const STAGE_MAY_IMPORT: Record<string, readonly string[]> = {
  arrival: ["admission", "execution", "lane", "observability", "pages", "sse"],
  transport: ["admission", "arrival", "execution", "observability", "session"],
  sse: ["transport"],
  pages: ["arrival"],
  preparation: ["admission", "execution", "lane", "observability", "session"],
  admission: ["execution", "preparation", "session"],
  execution: ["session"],
  answer: ["arrival", "execution", "live"],
  live: [],
  // The fast lane mirrors every stage: it takes each stage's own rule rather than a copy.
  lane: ["admission", "answer", "arrival", "execution", "observability", "preparation"],
  session: ["execution"],
  observability: [],
  // MCP is another way in: it runs every call through /graphql's own handler, reusing its CORS rule.
  mcp: ["arrival", "transport"],
};
describe("src/gateway/ stages", () => {
  it("has a folder for every stage, and no other", () => {
    const folders = readdirSync(GATEWAY, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(folders).toEqual([...Object.keys(STAGE_MAY_IMPORT), ...EVERY_STAGE_MAY_IMPORT].sort());
  });

  it.each(Object.entries(STAGE_MAY_IMPORT))(
    "%s imports only the gateway's root, itself and %j",
    (stage, others) => {
      const allowed = new Set([".", stage, ...EVERY_STAGE_MAY_IMPORT, ...others]);
      const wrong = filesUnder(join(GATEWAY, stage)).flatMap((file) =>
        importsOf(file)
          .filter((target) => target.startsWith("gateway/"))
          .map((target) => relative("gateway", dirname(target)) || ".")
          .filter((place) => !allowed.has(place))
          .map((place) => `${relative(SRC, file)} → ${place}`),
      );
      expect(wrong).toEqual([]);
    },
  );

  it("keeps shared/, the rules every stage reads, free of any other folder of the gateway", () => {
    const wrong = filesUnder(join(GATEWAY, "shared")).flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith("gateway/") && !target.startsWith("gateway/shared/"))
        .map((target) => `${relative(SRC, file)} → ${target}`),
    );
    expect(wrong).toEqual([]);
  });

  it("lets only the assembly and the transports that serve it import create-gateway.ts", () => {
    const importers = filesUnder(GATEWAY)
      .filter((file) => importsOf(file).includes("gateway/create-gateway.ts"))
      .map((file) => relative(SRC, file))
      .sort();
    expect(importers).toEqual([
      "gateway/transport/over-websocket.ts",
      "gateway/transport/server.ts",
    ]);
  });
});

/**
 * Size is a hint, not a rule: a cohesive table or state machine may be long, as
 * undici's errors.js and yoga's server.ts are; nothing is split by size alone. Past 600 lines it
 * fails, as no one rule needs that. Below, it says nothing: a test prints only what is wrong.
 */
describe("src/ file sizes", () => {
  const sizes = filesUnder(SRC).map(
    (file) => [relative(SRC, file), readFileSync(file, "utf8").split("\n").length] as const,
  );

  it("no file passes 600 lines", () => {
    expect(sizes.filter(([, lines]) => lines > 600)).toEqual([]);
  });
});
