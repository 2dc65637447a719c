import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pairwise } from "../support/pairwise.ts";
import { EXCLUSIONS, RUNS, SETTINGS } from "../support/settings-matrix.ts";

type Exclusions = ReadonlyArray<Record<string, string>>;
const isExcluded = (exclusions: Exclusions, a: string, va: string, b: string, vb: string) =>
  exclusions.some((e) => e[a] === va && e[b] === vb);

/** Every pair of values of any two factors, not excluded, that no row holds. */
function missingPairs(
  factors: Record<string, string[]>,
  rows: Array<Record<string, string>>,
  exclusions: Exclusions = [],
) {
  const names = Object.keys(factors);
  const missing: string[] = [];
  for (const [i, a] of names.entries())
    for (const b of names.slice(i + 1))
      for (const va of factors[a] ?? [])
        for (const vb of factors[b] ?? [])
          if (
            !isExcluded(exclusions, a, va, b, vb) &&
            !rows.some((row) => row[a] === va && row[b] === vb)
          )
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

  it("needs far fewer rows than every combination for the gateway's settings", () => {
    const factors = SETTINGS as unknown as Record<string, string[]>;
    const rows = RUNS as unknown as Array<Record<string, string>>;
    expect(missingPairs(factors, rows, [...EXCLUSIONS])).toEqual([]);
    // 3·3 pairs at least; every combination would be 3456.
    expect(rows.length).toBeGreaterThanOrEqual(9);
    expect(rows.length).toBeLessThanOrEqual(16);
  });

  it("never puts an excluded pair in a row, and still covers every other pair", () => {
    // Exclusions between later values only: each factor's first value is free, as the matrix's are.
    const withExclusions = shapes.chain((factors) => {
      const later = Object.entries(factors).flatMap(([name, values]) =>
        values.slice(1).map((value) => [name, value] as const),
      );
      const pairs = later.flatMap(([a, va], i) =>
        later.slice(i + 1).flatMap(([b, vb]) => (a === b ? [] : [{ [a]: va, [b]: vb }])),
      );
      return fc.record({
        factors: fc.constant(factors),
        exclusions: fc.subarray(pairs),
      });
    });
    fc.assert(
      fc.property(withExclusions, ({ factors, exclusions }) => {
        const rows = pairwise(factors, exclusions);
        expect(missingPairs(factors, rows, exclusions)).toEqual([]);
        for (const row of rows)
          for (const exclusion of exclusions)
            expect(Object.entries(exclusion).every(([name, value]) => row[name] === value)).toBe(
              false,
            );
      }),
    );
  });

  it("refuses an exclusion of an unknown value, or of the reference row's values", () => {
    expect(() => pairwise({ a: ["x", "y"], b: ["z"] }, [{ a: "w", b: "z" }])).toThrow(
      "a=w is no factor's value",
    );
    expect(() => pairwise({ a: ["x", "y"], b: ["z"] }, [{ a: "x", b: "z" }])).toThrow(
      "the reference row's",
    );
  });

  it("refuses a factor without a value", () => {
    expect(() => pairwise({ a: ["x"], b: [] })).toThrow("every factor needs a value");
  });
});
