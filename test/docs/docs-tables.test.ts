import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { defaultOf } from "../../scripts/config-reference.ts";
import { GENERATED_TABLES, LIMITS, TABLES, withTable } from "../../scripts/docs-tables.ts";
import { gatewayEnv } from "../../src/gateway/settings/config.ts";
import { GATEWAY_DEFAULTS } from "../../src/gateway/settings/defaults.ts";

describe("the tables docs/errors.md and docs/limits.md print from the code", () => {
  for (const [name, file] of Object.entries(GENERATED_TABLES)) {
    it(`are exactly what the code prints in ${name}.md (run \`npm run docs:tables\`)`, () => {
      const page = readFileSync(file, "utf8");
      expect(page).toBe(withTable(page, TABLES[name as keyof typeof GENERATED_TABLES]()));
    });
  }

  it("print each bound's default as the environment takes it", () => {
    const differing = LIMITS.filter((row) => row.defaults !== undefined)
      .map((row) => [
        row.setting,
        defaultOf(gatewayEnv.shape[row.setting]),
        String(GATEWAY_DEFAULTS[row.defaults as keyof typeof GATEWAY_DEFAULTS]),
      ])
      .filter(([, environment, declared]) => environment !== declared);
    expect(differing).toEqual([]);
  });

  it("name each bound once, each a setting of the environment", () => {
    const settings = LIMITS.map((row) => row.setting);
    expect(new Set(settings).size).toBe(settings.length);
    for (const setting of settings) expect(Object.keys(gatewayEnv.shape)).toContain(setting);
  });
});
