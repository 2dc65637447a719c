import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createKeyHasher, hashesPerConnection } from "../../src/upstream/key-memory.ts";

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

describe("hashesPerConnection", () => {
  it("works a connection's key out once, and again only when that connection's key changes", () => {
    const secret = "a fleet's CURSOR_SECRET, at least 32 characters long";
    const plain = createKeyHasher(secret);
    const computed: string[] = [];
    const counting = (authorization: string) => {
      computed.push(authorization);
      return plain(authorization);
    };
    const on = hashesPerConnection(counting);
    const [first, second] = [{}, {}];

    const hashes = [
      on(first)("Bearer sk_test_acme"),
      on(first)("Bearer sk_test_acme"),
      on(second)("Bearer sk_test_acme"),
      on(first)("Bearer sk_test_globex"),
      on(first)("Bearer sk_test_acme"),
      on(undefined)("Bearer sk_test_acme"),
    ];

    // Every answer is the hasher's own; a connection never reads another's entry.
    expect(hashes).toEqual(
      ["acme", "acme", "acme", "globex", "acme", "acme"].map((k) => plain(`Bearer sk_test_${k}`)),
    );
    expect(computed).toEqual([
      "Bearer sk_test_acme",
      "Bearer sk_test_acme",
      "Bearer sk_test_globex",
      "Bearer sk_test_acme",
      "Bearer sk_test_acme",
    ]);
  });
});
