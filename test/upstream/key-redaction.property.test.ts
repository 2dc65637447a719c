import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KeyRedactor, REDACTED, tokenOf } from "../../src/upstream/key-redaction.ts";
import { echoOf, keyArbitrary, leaksOf } from "../support/key-echoes.ts";

describe("KeyRedactor", () => {
  it("leaves no run of 8 characters of the key, in any case or spelling, in what an upstream echoes", () => {
    fc.assert(
      fc.property(keyArbitrary, fc.gen(), (key, gen) => {
        const echo = echoOf(key, gen);
        const redacted = new KeyRedactor(`Bearer ${key}`).text(`before ${echo.text} after`);
        expect(leaksOf(key, redacted), `${echo.how}: ${redacted}`).toEqual([]);
        expect(redacted.startsWith("before ")).toBe(true);
        expect(redacted.endsWith(" after")).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it("changes no text that holds no run of the key", () => {
    fc.assert(
      fc.property(keyArbitrary, fc.string({ maxLength: 200 }), (key, text) => {
        fc.pre(leaksOf(key, text).length === 0);
        expect(new KeyRedactor(`Bearer ${key}`).text(text)).toBe(text);
      }),
      { numRuns: 400 },
    );
  });

  it("redacts object keys and values at any depth, and keeps the shape", () => {
    const key = "sk_live_Sentinel_12345";
    const redactor = new KeyRedactor(`Bearer ${key}`);
    expect(
      redactor.json({
        [key]: [`x${key.toUpperCase()}y`, 3, null, { deep: Buffer.from(key).toString("base64") }],
      }),
    ).toEqual({ [REDACTED]: [`x${REDACTED}y`, 3, null, { deep: REDACTED }] });
  });

  it("reads the token behind any scheme, or the whole value without one", () => {
    expect(tokenOf("Bearer  sk_1 ")).toBe("sk_1");
    expect(tokenOf("bearer sk_1")).toBe("sk_1");
    expect(tokenOf("sk_1")).toBe("sk_1");
  });

  it("redacts nothing for a key too short to be one, and all of a short key", () => {
    expect(new KeyRedactor("Bearer abc").text("abc abc")).toBe("abc abc");
    expect(new KeyRedactor("Bearer abcdef").text("xABCDEFx abcde")).toBe(`x${REDACTED}x abcde`);
  });
});
