import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pairwise } from "../support/pairwise.ts";

/** Every pair of values of any two factors that no row holds. */
function missingPairs(factors: Record<string, string[]>, rows: Array<Record<string, string>>) {
  const names = Object.keys(factors);
  const missing: string[] = [];
  for (const [i, a] of names.entries())
    for (const b of names.slice(i + 1))
      for (const va of factors[a] ?? [])
        for (const vb of factors[b] ?? [])
          if (!rows.some((row) => row[a] === va && row[b] === vb))
            missing.push(`${a}=${va} ${b}=${vb}`);
  return missing;
}

const shapes = fc
  .array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 8 })
  .map((sizes) =>
    Object.fromEntries(
      sizes.map((size, f) => [`f${f}`, Array.from({ length: size }, (_, v) => `v${v}`)]),
    ),
  );

describe("the pairwise generator", () => {
  it("covers every pair of values of any two factors, with known values only", () => {
    fc.assert(
      fc.property(shapes, (factors) => {
        const rows = pairwise(factors);
        expect(missingPairs(factors, rows)).toEqual([]);
        for (const row of rows)
          for (const [name, values] of Object.entries(factors)) expect(values).toContain(row[name]);
      }),
    );
  });

  it("starts from the first value of every factor and is deterministic", () => {
    fc.assert(
      fc.property(shapes, (factors) => {
        const rows = pairwise(factors);
        expect(rows[0]).toEqual(
          Object.fromEntries(Object.entries(factors).map(([name, values]) => [name, values[0]])),
        );
        expect(pairwise(factors)).toEqual(rows);
      }),
    );
  });

  it("needs far fewer rows than every combination for the gateway's settings' shape", () => {
    const factors = {
      auth: ["a", "b", "c"],
      store: ["a", "b", "c"],
      cache: ["a", "b"],
      documents: ["a", "b", "c"],
      federation: ["a", "b"],
      fastPath: ["a", "b"],
      compiled: ["a", "b"],
    };
    const rows = pairwise(factors);
    expect(missingPairs(factors, rows)).toEqual([]);
    // 3·3 pairs at least; every combination would be 432.
    expect(rows.length).toBeGreaterThanOrEqual(9);
    expect(rows.length).toBeLessThanOrEqual(16);
  });

  it("refuses a factor without a value", () => {
    expect(() => pairwise({ a: ["x"], b: [] })).toThrow("every factor needs a value");
  });
});
