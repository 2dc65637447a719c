import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./harness.ts";

/**
 * The cost check walks the client's document before any upstream call. Named fragments spread
 * again and again at one level are collected once by graphql-js, and must be walked once too:
 * otherwise four fragments of 100 spreads each (a few hundred tokens) are 10^8 steps.
 */

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

function repeatedSpreads(levels: number, width: number, leaf: string): string {
  const fragments = Array.from(
    { length: levels },
    (_, i) =>
      `fragment F${i} on Query { ${Array(width)
        .fill(`...F${i + 1}`)
        .join(" ")} }`,
  );
  return `query { ...F0 } ${fragments.join(" ")} fragment F${levels} on Query { ${leaf} }`;
}

describe("repeated fragment spreads", () => {
  it("are estimated as graphql-js runs them, at once", async () => {
    const plain = await harness.graphql("query { organization { name } }");
    const started = performance.now();
    const bomb = await harness.graphql(repeatedSpreads(4, 100, "organization { name }"));
    // A bound against expanding 100^4 spreads, not a speed: that would take minutes.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(bomb.body.errors).toBeUndefined();
    expect(bomb.body.data).toEqual(plain.body.data);
    expect(bomb.body.extensions?.cost).toEqual(plain.body.extensions?.cost);
    expect((await fetch(`${harness.url}/healthz`)).status).toBe(200);
  });
});
