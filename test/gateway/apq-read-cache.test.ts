import { afterEach, describe, expect, it } from "vitest";
import { KeyMemory } from "../../src/upstream/key-memory.ts";
import { byHash, codeOf, ORGANIZATION, post, withQuery } from "./apq-requests.ts";
import { ACME, GLOBEX, type Harness, startHarness } from "./harness.ts";

// A registration is kept once its key has been seen accepted. An answer from the read cache makes
// no upstream call, but the cache holds entries only for keys the upstream accepted: it counts.

let harness: Harness;
afterEach(() => harness.close());

const costOf = (answer: { body: Record<string, unknown> }) =>
  (answer.body.extensions as { cost: { upstreamCalls: number; cacheHits?: number } }).cost;

describe("an APQ registration answered by the read cache", () => {
  it("is kept: the hash alone then runs", async () => {
    // A key memory of one key: Globex's call makes the instance forget that Acme was accepted,
    // while Acme's answer stays in the read cache (as with many keys, or another instance's call).
    harness = await startHarness({
      gateway: { sharing: { cacheTtlS: 60 } },
      upstream: { keyMemory: new KeyMemory({ capacity: 1 }) },
    });
    const warm = await post(harness.url, { query: ORGANIZATION }, ACME);
    expect(costOf(warm).upstreamCalls).toBe(1);
    expect(costOf(await post(harness.url, { query: ORGANIZATION }, GLOBEX)).upstreamCalls).toBe(1);
    const registered = await post(harness.url, withQuery(ORGANIZATION), ACME);
    expect(registered.body.data).toEqual(warm.body.data);
    expect(costOf(registered)).toMatchObject({ upstreamCalls: 0, cacheHits: 1 });
    const again = await post(harness.url, byHash(ORGANIZATION), ACME);
    expect(codeOf(again)).toBeUndefined();
    expect(again.body.data).toEqual(warm.body.data);
  });
});

describe("an APQ registration of an operation that is not valid", () => {
  it("is not kept, even for an accepted key", async () => {
    harness = await startHarness({ gateway: { sharing: { cacheTtlS: 60 } } });
    await post(harness.url, { query: ORGANIZATION }, ACME);
    const invalid = "query Nope { organization { noSuchField } }";
    expect(codeOf(await post(harness.url, withQuery(invalid), ACME))).toBe(
      "GRAPHQL_VALIDATION_FAILED",
    );
    expect(codeOf(await post(harness.url, byHash(invalid), ACME))).toBe(
      "PERSISTED_QUERY_NOT_FOUND",
    );
  });
});
