import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultOf } from "../../scripts/config-reference.ts";
import { ERROR_CATALOGUE, ERROR_CODES, type ErrorCode } from "../../src/errors.ts";
import { MAX_BRACKET_DEPTH } from "../../src/gateway/admission/use-well-formed-input.ts";
import { gatewayEnv } from "../../src/gateway/settings/config.ts";
import { sandboxEnv } from "../../src/sandbox/config.ts";
import { ERROR_CODES as SANDBOX_ERROR_CODES } from "../../src/sandbox/error-codes.ts";

/**
 * Claims the docs make in prose, read out of their text and held to the code: a setting's
 * default, an error code's HTTP status, a settings table. The generated tables have their own
 * drift test (docs-tables.test.ts, configuration-reference.test.ts); the figures of one constant
 * each are listed in doc-constants.test.ts.
 */

const ROOT = resolve(import.meta.dirname, "../..");
const FILES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** A page's prose: generated blocks (held by their own tests) left out. */
function prose(file: string): string {
  return readFileSync(join(ROOT, file), "utf8").replace(
    /<!-- BEGIN GENERATED[\s\S]*?<!-- END GENERATED -->/g,
    "",
  );
}

const SETTINGS: Record<string, string> = Object.fromEntries(
  Object.entries({ ...gatewayEnv.shape, ...sandboxEnv.shape }).map(([name, field]) => [
    name,
    defaultOf(field),
  ]),
);

/** The bench's own settings, as its scripts read them: `process.env.NAME ?? N`. */
const BENCH_DEFAULTS: Record<string, Set<string>> = {};
for (const file of readdirSync(join(ROOT, "bench")).filter((f) => f.endsWith(".ts"))) {
  const source = readFileSync(join(ROOT, "bench", file), "utf8");
  for (const [, name, value] of source.matchAll(/process\.env\.(BENCH_\w+) \?\? "?([\w.]+)"?/g)) {
    const known = BENCH_DEFAULTS[name as string] ?? new Set<string>();
    known.add(value as string);
    BENCH_DEFAULTS[name as string] = known;
  }
}

/** A figure as the code has it: `1_000`, `1,000` and `1000` alike; seconds to ms where named. */
function figure(text: string, unit: string | undefined, setting: string): string {
  const plain = text.replace(/[_,]/g, "");
  if (unit === "s" && setting.endsWith("_MS")) return String(Number(plain) * 1000);
  return plain;
}

interface Claim {
  file: string;
  text: string;
  claimed: string;
  actual: string;
}

/** "`NAME` … default N" within one clause (no other code name, no full stop between). */
function defaultClaims(): Claim[] {
  const claims: Claim[] = [];
  for (const file of FILES) {
    const body = prose(file);
    const pattern =
      /`([A-Z][A-Z0-9_]{2,})`([^`.;]{0,40}?)\bdefaults? (?:is )?`?(\d[\d_,.]*)`?(?: (s|ms)\b)?/g;
    for (const match of body.matchAll(pattern)) {
      const [text, name = "", , value = "", unit] = match;
      if (name in SETTINGS) {
        claims.push({
          file,
          text,
          claimed: figure(value, unit, name),
          actual: SETTINGS[name] as string,
        });
      } else if (name.startsWith("BENCH_")) {
        const known = BENCH_DEFAULTS[name] ?? new Set();
        const claimed = figure(value, unit, name);
        claims.push({
          file,
          text,
          claimed,
          actual: known.has(claimed) ? claimed : [...known].join("|"),
        });
      }
    }
  }
  return claims;
}

/** "`CODE` (HTTP N", "`CODE`, HTTP N", "`CODE` (`http.status` N", "`CODE` (N)", "N `CODE`", "N, `CODE`". */
function statusClaims(): Claim[] {
  const claims: Claim[] = [];
  const gateway = ERROR_CODES as Record<string, number>;
  const sandbox = SANDBOX_ERROR_CODES as Record<string, number>;
  for (const file of FILES) {
    // The sandbox's own codes are named in docs/upstream.md, the gateway's everywhere else.
    const codes = file === "docs/upstream.md" ? { ...gateway, ...sandbox } : gateway;
    const body = prose(file).replace(/\s+/g, " ");
    const after =
      /`([A-Z][A-Z_]+)`,? \(?(?:HTTP |`http\.status` )(\d{3})\b|`([A-Z][A-Z_]+)` \((\d{3})\)|`([A-Z][A-Z_]+)` (\d{3})\b/g;
    for (const match of body.matchAll(after)) {
      const code = match[1] ?? match[3] ?? match[5] ?? "";
      const status = match[2] ?? match[4] ?? match[6] ?? "";
      if (code in codes) {
        claims.push({ file, text: match[0], claimed: status, actual: String(codes[code]) });
      }
    }
    // Not in a list of "`CODE` N, `CODE` N": there the figure is the code's before it.
    for (const match of body.matchAll(/(?<!`[A-Z_]+` )\b(\d{3}),? `([A-Z][A-Z_]+)`/g)) {
      const [text, status = "", code = ""] = match;
      if (!(code in codes)) continue;
      // "200, `CODE`": a field error, which leaves the response at 200 (docs/http.md).
      const field =
        code in ERROR_CATALOGUE && ERROR_CATALOGUE[code as ErrorCode].scope !== "operation";
      const actual = status === "200" && field ? "200" : String(codes[code]);
      claims.push({ file, text, claimed: status, actual });
    }
  }
  return claims;
}

/** Rows of every Markdown table whose header has a `Setting` and a `Default` column. */
function tableClaims(): Claim[] {
  const claims: Claim[] = [];
  for (const file of FILES) {
    const lines = prose(file).split("\n");
    for (let i = 0; i < lines.length; i++) {
      const header = cells(lines[i] ?? "");
      const setting = header.findIndex((cell) => /^setting$/i.test(cell));
      const fallback = header.findIndex((cell) => /^default$/i.test(cell));
      if (setting < 0 || fallback < 0) continue;
      for (let row = i + 2; (lines[row] ?? "").startsWith("|"); row++) {
        const values = cells(lines[row] as string);
        const name = /^`([A-Z][A-Z0-9_]+)`$/.exec(values[setting] ?? "")?.[1];
        const value = /^`?([^`]*)`?$/.exec(values[fallback] ?? "")?.[1];
        if (name === undefined || value === undefined || !(name in SETTINGS)) continue;
        claims.push({
          file,
          text: lines[row] as string,
          claimed: value,
          actual: SETTINGS[name] as string,
        });
      }
    }
  }
  return claims;
}

function cells(line: string): string[] {
  return line
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((cell) => cell.trim());
}

function wrong(claims: Claim[]): string[] {
  return claims
    .filter((claim) => claim.claimed !== claim.actual)
    .map(
      (claim) => `${claim.file}: "${claim.text}" says ${claim.claimed}, the code ${claim.actual}`,
    );
}

describe("claims in README.md and docs/, read from their text", () => {
  it("give each setting the default the code declares", () => {
    const claims = defaultClaims();
    expect(claims.length).toBeGreaterThanOrEqual(5);
    expect(wrong(claims)).toEqual([]);
  });

  it("give each error code the HTTP status of its catalogue", () => {
    const claims = statusClaims();
    expect(claims.length).toBeGreaterThan(20);
    expect(wrong(claims)).toEqual([]);
  });

  it("give each setting of a settings table the default the code declares", () => {
    const claims = tableClaims();
    expect(claims.length).toBeGreaterThan(1);
    expect(wrong(claims)).toEqual([]);
  });

  it("give each upstream status of docs/errors.md's table the code's http.status", () => {
    const rows = [
      ...prose("docs/errors.md").matchAll(/^\| ([^|]+?) +\| `([A-Z_]+)`[^|]*\| (\d{3}) +\|$/gm),
    ];
    expect(rows.length).toBe(9);
    const claims = rows.map(([text = "", , code = "", status = ""]) => ({
      file: "docs/errors.md",
      text,
      claimed: status,
      actual: String((ERROR_CODES as Record<string, number>)[code]),
    }));
    expect(wrong(claims)).toEqual([]);
  });

  it("are read at all: a bound written out elsewhere is found", () => {
    expect(prose("docs/limits.md")).toContain(`| ${MAX_BRACKET_DEPTH}, checked before the parser`);
  });
});
