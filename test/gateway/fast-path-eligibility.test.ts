import { describe, expect, it } from "vitest";
import { createEligibility } from "../../src/gateway/lane/fast-path-eligibility.ts";

describe("the fast path's look at a document", () => {
  it("names the operation's kind within the gateway's token limit", () => {
    const eligibility = createEligibility(20);
    expect(eligibility.operationKindOf("{ organization { name } }", null)).toBe("query");
    expect(eligibility.operationKindOf("mutation M { a }", "M")).toBe("mutation");
    expect(eligibility.operationKindOf("{ a ... @defer { b } }", null)).toBeUndefined();
  });

  it("spends no parse past MAX_TOKENS: a longer document is left to yoga's parser, which refuses it", () => {
    const long = `{ ${Array.from({ length: 30 }, (_, i) => `f${i}`).join(" ")} }`;
    expect(createEligibility(20).operationKindOf(long, null)).toBeUndefined();
    expect(createEligibility(100).operationKindOf(long, null)).toBe("query");
  });
});
