import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type BenchResults, benchmarksPage, PAGE, RESULTS } from "../../scripts/benchmarks-doc.ts";

// docs/benchmarks.md is printed from bench/results.json: a figure typed by hand, or a run whose
// page was not printed again, fails here (`npm run docs:bench` mends it).
describe("docs/benchmarks.md", () => {
  const results = JSON.parse(readFileSync(RESULTS, "utf8")) as BenchResults;
  const page = readFileSync(PAGE, "utf8");

  it("is the page printed from bench/results.json", () => {
    expect(page).toBe(benchmarksPage(results));
  });

  it("names the commit measured, and stays a page, not a diary", () => {
    expect(results.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(page.split("\n").length).toBeLessThan(150);
    expect(
      readFileSync(new URL("../../bench/profile.md", import.meta.url), "utf8").split("\n").length,
    ).toBeLessThan(150);
  });
});
