import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRateLimit, RATE_LIMIT_HEADERS } from "../../src/upstream/rate-limit.ts";

/** The reading as the seed's Limits state it: digits, whitespace around them, a safe integer. */
function model(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) ? parsed : undefined;
}

const whitespace = fc.constantFrom(
  "",
  " ",
  "\t",
  "\n",
  "\r\n",
  "\u00a0",
  "\ufeff",
  "\u2028",
  "\u3000",
);
const value = fc.oneof(
  fc.tuple(whitespace, fc.nat(), whitespace).map(([a, n, b]) => `${a}${n}${b}`),
  fc
    .tuple(whitespace, fc.bigInt({ min: 0n, max: 10n ** 20n }), whitespace)
    .map(([a, n, b]) => `${a}${n}${b}`),
  fc.constantFrom(
    "",
    " ",
    "-1",
    "+5",
    "1.5",
    "1e3",
    "0x10",
    "１２",
    "٣",
    "12 34",
    "Infinity",
    "NaN",
  ),
  fc.string(),
  fc.string({ unit: fc.constantFrom("0", "7", "9", " ", "\t", "-", ".", "e", "\u00a0") }),
);

describe("the three X-RateLimit-* headers", () => {
  it("read as the seed states them, for any values", () => {
    fc.assert(
      fc.property(fc.tuple(value, value, value), ([limit, remaining, reset]) => {
        const headers = {
          [RATE_LIMIT_HEADERS.limit.toLowerCase()]: limit,
          [RATE_LIMIT_HEADERS.remaining.toLowerCase()]: remaining,
          [RATE_LIMIT_HEADERS.reset.toLowerCase()]: reset,
        };
        const read = [model(limit), model(remaining), model(reset)];
        const expected =
          read.includes(undefined) || (read[2] as number) > 8.64e12
            ? undefined
            : { limit: read[0], remaining: read[1], reset: read[2] };
        expect(parseRateLimit(headers)).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });
});
