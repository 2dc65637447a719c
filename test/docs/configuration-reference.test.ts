import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIGURATION_FILE, configurationReference } from "../../scripts/config-reference.ts";
import { gatewayEnv } from "../../src/gateway/settings/config.ts";
import { sandboxEnv } from "../../src/sandbox/config.ts";

describe("docs/configuration.md", () => {
  it("is exactly the reference printed from the zod declarations (run `npm run docs:config`)", () => {
    expect(readFileSync(CONFIGURATION_FILE, "utf8")).toBe(configurationReference());
  });

  it("gives every setting a meaning where it is declared", () => {
    const undescribed = [...Object.entries(gatewayEnv.shape), ...Object.entries(sandboxEnv.shape)]
      .filter(([, field]) => !field.description)
      .map(([name]) => name);
    expect(undescribed).toEqual([]);
  });
});
