import { serverAudits } from "graphql-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./harness.ts";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

// graphql-http's audit names start with the RFC keyword they check: MUST, SHOULD or MAY.
const audits = serverAudits({ url: () => `${harness.url}/graphql` });

describe("GraphQL over HTTP conformance (graphql-http serverAudits)", () => {
  const required = audits.filter((audit) => /^(MUST|SHOULD)\b/.test(audit.name));

  it("audits every MUST and SHOULD", () => {
    expect(required.length).toBeGreaterThan(20);
  });

  for (const audit of required) {
    it(audit.name, async () => {
      const result = await audit.fn();
      expect(result.status === "ok" ? "ok" : `${result.status}: ${result.reason}`).toBe("ok");
    });
  }
});
