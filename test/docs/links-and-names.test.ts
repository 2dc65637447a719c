import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/errors.ts";
import { gatewayEnv } from "../../src/gateway/config.ts";
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
