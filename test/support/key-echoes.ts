import fc from "fast-check";

/** Keys as real platforms issue them: a prefix, letters of both cases, digits, `_` and `-`. */
export const keyArbitrary = fc
  .tuple(
    fc.constantFrom("sk_live_", "sk_test_", "key-", ""),
    fc.string({
      unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"),
      minLength: 12,
      maxLength: 40,
    }),
  )
  .map(([prefix, body]) => `${prefix}${body}`);

const RUN = 8;

function flipCase(text: string, flips: boolean[]): string {
  return [...text]
    .map((char, i) => (flips[i % flips.length] ? char.toUpperCase() : char.toLowerCase()))
    .join("");
}

/**
 * The test's own, independent reading of "a piece of the key": every run of 8 characters of the
 * key, of `Bearer <key>`, and of their spellings (each spelling made from every piece of the
 * key, so base64 at any offset counts), compared without regard to case.
 */
function suspects(key: string): Set<string> {
  const found = new Set<string>();
  const add = (text: string) => {
    for (let i = 0; i + RUN <= text.length; i++) found.add(text.slice(i, i + RUN).toLowerCase());
  };
  for (const plain of [key, `Bearer ${key}`]) {
    add(plain);
    add(encodeURIComponent(plain));
    add(Buffer.from(plain).toString("hex"));
    for (let start = 0; start < plain.length; start++) {
      for (let end = start + RUN; end <= plain.length; end++) {
        const piece = Buffer.from(plain.slice(start, end));
        // The last group of a base64 text encodes where the piece ends, not the key: left out.
        const whole = piece.subarray(0, piece.length - (piece.length % 3));
        add(whole.toString("base64"));
        add(whole.toString("base64url"));
      }
    }
  }
  return found;
}

/** Every run of the key, in any case or spelling, that the text still holds. */
export function leaksOf(key: string, text: string): string[] {
  const runs = suspects(key);
  const leaks: string[] = [];
  const folded = text.toLowerCase();
  for (let i = 0; i + RUN <= folded.length; i++) {
    const run = folded.slice(i, i + RUN);
    if (runs.has(run)) leaks.push(run);
  }
  return leaks;
}

/** One way an upstream may echo a key: a piece, a case change, an encoding, or several at once. */
export function echoOf(key: string, gen: fc.GeneratorValue): { how: string; text: string } {
  const start = gen(fc.integer, { min: 0, max: key.length - RUN });
  const end = gen(fc.integer, { min: start + RUN, max: key.length });
  const piece = key.slice(start, end);
  const flips = gen(fc.array, fc.boolean(), { minLength: 1, maxLength: 8 });
  const how = gen(fc.constantFrom, ...ECHOES);
  return { how, text: spell(how, piece, key, flips) };
}

const ECHOES = [
  "piece",
  "whole",
  "upper",
  "lower",
  "mixed case",
  "bearer",
  "base64",
  "base64url",
  "hex",
  "HEX",
  "url",
  "url bearer",
  "every byte %xx",
  "json unicode escapes",
  "piece base64 of bearer",
] as const;

function spell(how: (typeof ECHOES)[number], piece: string, key: string, flips: boolean[]) {
  switch (how) {
    case "piece":
      return piece;
    case "whole":
      return key;
    case "upper":
      return key.toUpperCase();
    case "lower":
      return `bearer ${key.toLowerCase()}`;
    case "mixed case":
      return flipCase(piece, flips);
    case "bearer":
      return `Bearer ${piece}`;
    case "base64":
      return Buffer.from(piece).toString("base64");
    case "base64url":
      return Buffer.from(piece).toString("base64url");
    case "hex":
      return Buffer.from(piece).toString("hex");
    case "HEX":
      return Buffer.from(piece).toString("hex").toUpperCase();
    case "url":
      return encodeURIComponent(piece);
    case "url bearer":
      return encodeURIComponent(`Bearer ${key}`);
    case "every byte %xx":
      return [...Buffer.from(piece)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join("");
    case "json unicode escapes":
      return [...piece]
        .map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)
        .join("");
    case "piece base64 of bearer":
      return Buffer.from(`Bearer ${piece}`).toString("base64");
  }
}
