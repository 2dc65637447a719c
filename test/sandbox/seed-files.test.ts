import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseOrgSeed } from "../../src/sandbox/seed.ts";

const seedText = (slug: string) =>
  readFileSync(new URL(`../../src/sandbox/seed/${slug}.json`, import.meta.url), "utf8");

describe("seed files", () => {
  it.each(["acme", "globex"])("%s.json holds records of the documented shapes", (slug) => {
    const seed = parseOrgSeed(seedText(slug));
    expect(seed.slug).toBe(slug);
    expect(seed.agents.length).toBeGreaterThan(1);
  });

  it("refuses a record the document would not describe, naming where it is", () => {
    const seed = JSON.parse(seedText("globex"));
    seed.agents[1].status = "SLEEPING";
    expect(() => parseOrgSeed(JSON.stringify(seed))).toThrow(/agents.*1.*status|status/s);
    seed.agents[1].status = "PAUSED";
    seed.contacts[0].id = "contact_1";
    expect(() => parseOrgSeed(JSON.stringify(seed))).toThrow(/contacts/);
  });

  it("keeps each record's keys in the order written: the sandbox answers with them", () => {
    const seed = parseOrgSeed(seedText("acme"));
    expect(Object.keys(seed.agents[0] ?? {})).toEqual(
      Object.keys(JSON.parse(seedText("acme")).agents[0]),
    );
    expect(Object.keys(seed.agents[0] ?? {}).indexOf("status")).toBe(3);
  });
});
