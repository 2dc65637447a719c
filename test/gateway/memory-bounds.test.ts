import { afterEach, describe, expect, it } from "vitest";
import { byHash, codeOf, ORGANIZATION, post, withQuery } from "./apq-requests.ts";
import { ACME, GLOBEX, type Harness, startHarness } from "./harness.ts";

// Memory no caller without a key can pin: APQ registrations only for an
// accepted key and per key, and every cache fed by request text bounded in bytes.

describe("automatic persisted queries, tied to an accepted key", () => {
  let harness: Harness;
  afterEach(() => harness.close());

  it("keeps no registration without a key, nor for a key the upstream refused", async () => {
    harness = await startHarness();
    expect((await post(harness.url, withQuery(ORGANIZATION), null)).status).toBe(401);
    const refused = await post(harness.url, withQuery(ORGANIZATION), "Bearer sk_wrong");
    expect(codeOf(refused)).toBe("UNAUTHENTICATED");
    // Acme has used no hash: both tries above left nothing behind.
    expect(codeOf(await post(harness.url, byHash(ORGANIZATION), ACME))).toBe(
      "PERSISTED_QUERY_NOT_FOUND",
    );
  });

  it("answers another key's and a keyless probe as it answers an unknown hash", async () => {
    harness = await startHarness();
    const registered = await post(harness.url, withQuery(ORGANIZATION), ACME);
    expect(registered.body.data).toEqual({ organization: { name: "Acme Health" } });
    expect((await post(harness.url, byHash(ORGANIZATION), ACME)).body.data).toEqual(
      registered.body.data,
    );
    const unknown = await post(harness.url, byHash(`${ORGANIZATION} # never sent`), GLOBEX);
    for (const authorization of [GLOBEX, null]) {
      const probe = await post(harness.url, byHash(ORGANIZATION), authorization);
      const shape = (answer: typeof probe) => ({
        status: answer.status,
        errors: (answer.body.errors as Array<{ message: string }>).map((e) => e.message),
        code: codeOf(answer),
      });
      expect(shape(probe)).toEqual(shape(unknown));
      expect(codeOf(probe)).toBe("PERSISTED_QUERY_NOT_FOUND");
    }
  });

  it("never registers a document over MAX_CACHED_DOCUMENT_BYTES (it runs, and is not kept)", async () => {
    harness = await startHarness({ gateway: { bounds: { maxCachedDocumentBytes: 1024 } } });
    const large = `${ORGANIZATION} #${"x".repeat(2000)}`;
    expect((await post(harness.url, withQuery(large), ACME)).body.data).toEqual({
      organization: { name: "Acme Health" },
    });
    expect(codeOf(await post(harness.url, byHash(large), ACME))).toBe("PERSISTED_QUERY_NOT_FOUND");
  });
});
