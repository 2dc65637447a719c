import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/errors.ts";
import { gatewayEnv } from "../../src/gateway/settings/config.ts";
import { sandboxEnv } from "../../src/sandbox/config.ts";
import { ERROR_CODES as SANDBOX_ERROR_CODES } from "../../src/sandbox/error-codes.ts";
import { UNAVAILABLE_REASONS } from "../../src/upstream/errors.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const DOCS = [
  join(ROOT, "README.md"),
  ...readdirSync(join(ROOT, "docs")).map((f) => join(ROOT, "docs", f)),
].filter((file) => file.endsWith(".md"));
const text = DOCS.map((file) => readFileSync(file, "utf8")).join("\n");

describe("the README and docs/", () => {
  it("have no relative link that leads nowhere", () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      const body = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
      for (const [, target] of body.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!target || /^[a-z]+:/.test(target) || target.startsWith("#")) continue;
        const path = resolve(dirname(file), target.split("#")[0] as string);
        if (!existsSync(path)) broken.push(`${file.slice(ROOT.length + 1)} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("name only files that exist (a path in backticks under src/, scripts/, test/, bench/, schema/)", () => {
    const missing: string[] = [];
    for (const file of DOCS) {
      const body = readFileSync(file, "utf8");
      for (const [, path] of body.matchAll(/`((?:src|scripts|test|bench|schema)\/[\w./-]+)`/g)) {
        if (path && !existsSync(join(ROOT, path))) {
          missing.push(`${file.slice(ROOT.length + 1)} → ${path}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("name in docs/development.md only code names that exist, or that its walkthrough creates", () => {
    const body = readFileSync(join(ROOT, "docs", "development.md"), "utf8");
    const created = new Set(
      [
        ...(/Names the\s+walkthrough creates: ([^.]+)\./.exec(body)?.[1] ?? "").matchAll(
          /`(\w+)`/g,
        ),
      ].map(([, name]) => name),
    );
    const code = [
      ...sourcesUnder(join(ROOT, "src")),
      ...sourcesUnder(join(ROOT, "test")),
      ...sourcesUnder(join(ROOT, "scripts")),
      ["vitest.config.ts", readFileSync(join(ROOT, "vitest.config.ts"), "utf8")],
      ["package.json", readFileSync(join(ROOT, "package.json"), "utf8")],
    ]
      .map(([, source]) => source)
      .join("\n");
    // A code name: `name`, `name(…)` or `Type.member`, camelCase or PascalCase with a capital
    // inside it, or a constant in capitals.
    const names = [...body.matchAll(/`([A-Za-z_][\w]*)(?:[.(][^`]*)?`/g)]
      .map(([, name]) => name as string)
      .filter((name) =>
        /^[a-z]+[A-Z]\w*$|^[A-Z][a-z]+[A-Z]\w*$|^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(name),
      );
    expect(created.size).toBeGreaterThan(0);
    const unknown = [...new Set(names)].filter(
      // The language's own globals (`ReferenceError`) are no names of ours.
      (name) =>
        !created.has(name) && !(name in globalThis) && !new RegExp(`\\b${name}\\b`).test(code),
    );
    expect(unknown).toEqual([]);
  });

  it("name every setting the code declares", () => {
    const names = [...Object.keys(gatewayEnv.shape), ...Object.keys(sandboxEnv.shape)];
    expect(names.filter((name) => !text.includes(`\`${name}\``))).toEqual([]);
  });

  it("name every error code and unavailable reason the code declares", () => {
    const names = [
      ...Object.keys(ERROR_CODES),
      ...Object.keys(SANDBOX_ERROR_CODES),
      ...UNAVAILABLE_REASONS,
    ];
    expect(names.filter((name) => !text.includes(name))).toEqual([]);
  });
});

/** Every .ts file under a folder, with its text. */
function sourcesUnder(dir: string): Array<[string, string]> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry): Array<[string, string]> => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith(".ts")
      ? [[path.slice(ROOT.length + 1), readFileSync(path, "utf8")]]
      : [];
  });
}

/** The `## ` and `### ` headings of a Markdown file. */
function headingsOf(file: string): string[] {
  return [...readFileSync(join(ROOT, file), "utf8").matchAll(/^#{2,3} (.+)$/gm)].map(
    ([, heading]) => heading?.trim() ?? "",
  );
}

describe("comments in src/", () => {
  const sources = sourcesUnder(join(ROOT, "src"));

  it("cite no issue number, which a reader of the code cannot look up", () => {
    const cites = sources.flatMap(([file, body]) =>
      [...body.matchAll(/\b[Ii]ssues? #?\d+\b/g)].map(([cite]) => `${file}: ${cite}`),
    );
    expect(cites).toEqual([]);
  });

  it("point only at docs and sections that exist", () => {
    const broken: string[] = [];
    for (const [file, body] of sources) {
      // `docs/x.md`, or `docs/x.md: "Section"`: the file, and the section when one is named.
      for (const [, doc, section] of body.matchAll(/\b(docs\/[\w-]+\.md)(?:: "([^"]+)")?/g)) {
        if (!doc) continue;
        // A section named across a comment's line break reads as one line.
        const named = section?.replace(/\s*\n\s*(\*|\/\/)?\s*/g, " ");
        if (!existsSync(join(ROOT, doc))) broken.push(`${file} → ${doc}`);
        else if (named && !headingsOf(doc).some((heading) => heading.startsWith(named))) {
          broken.push(`${file} → ${doc}: "${named}"`);
        }
      }
      // The README's sections are named as `README: Section`.
      for (const [, section] of body.matchAll(/\bREADME: "?([A-Z][\w ,.-]+?)"?[).]/g)) {
        if (section && !headingsOf("README.md").includes(section)) {
          broken.push(`${file} → README: ${section}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
