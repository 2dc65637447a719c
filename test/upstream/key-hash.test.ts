import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createKeyHasher } from "../../src/upstream/key-memory.ts";

describe("createKeyHasher", () => {
  it("is the HMAC-SHA-256 of the normalised key under the fleet's derived secret, as every instance names it", () => {
    const secret = "a fleet's CURSOR_SECRET, at least 32 characters long";
    const keyHash = createKeyHasher(secret);
    const derived = createHmac("sha256", secret).update("voicegraph key hash").digest();
    const expected = createHmac("sha256", derived)
      .update("Bearer sk_test_acme")
      .digest("base64url");
    expect(keyHash("Bearer sk_test_acme")).toBe(expected);
    expect(keyHash("  bearer   sk_test_acme ")).toBe(expected);
    expect(keyHash("Bearer sk_test_globex")).not.toBe(expected);
  });
});
